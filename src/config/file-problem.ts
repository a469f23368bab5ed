/** A file-system error as a short phrase for a one-line message about a file a user named. */
export function fileProblem(err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case "ENOENT":
      return "its directory does not exist";
    case "EACCES":
    case "EPERM":
      return "permission denied";
    case "EISDIR":
      return "it is a directory";
    case "ENOTDIR":
      return "a part of its path is a file, not a directory";
    case "EEXIST":
      return "a file of that name is in the way";
    case "EROFS":
      return "the file system is read-only";
    case "ENOSPC":
      return "no space left on the device";
    default:
      return err.code ?? err.message;
  }
}
