// Ink turns non-interactive when CI is set; the suite tests interactive behaviour.
delete process.env.CI;
// Keep the developer's own Turnkey settings out of every test.
for (const name of Object.keys(process.env)) {
  if (name.startsWith("TURNKEY_") || name.startsWith("TVC_") || name === "TVCWATCH_CONFIG")
    delete process.env[name];
}
