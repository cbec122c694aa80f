// Renders ICU messages with FormatJS `intl-messageformat` (the reference for the icu-json format), so
// tests/packs/i18n/formats/test_icu_interop.py can compare Parlance with it in the same run.
//
// stdin:  {"cases": [{"locale": "de", "message": "...", "values": {...}}, ...]}
// stdout: [{"text": "..."} | {"error": "..."} | {"other": "<JSON of a non-string result>"}, ...], one per case.
//
// Messages are parsed as Parlance reads them: tags are kept as text (`ignoreTag: true`). A message that
// fails to parse, or to format with the given values, is an {"error"} naming what FormatJS threw.
// Run with TZ=UTC (tests.support.run_node_reference sets it): dates and times are then the same everywhere.
import { IntlMessageFormat } from "intl-messageformat";

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const { cases } = JSON.parse(Buffer.concat(chunks).toString("utf8"));

const compiled = new Map();  // one formatter per (locale, message), as an app would keep it
const formatter = (locale, message) => {
  const key = `${locale}\u0000${message}`;
  if (!compiled.has(key)) {
    try {
      compiled.set(key, new IntlMessageFormat(message, locale, undefined, { ignoreTag: true }));
    } catch (error) {
      compiled.set(key, error);
    }
  }
  return compiled.get(key);
};

const results = cases.map(({ locale, message, values }) => {
  const format = formatter(locale, message);
  if (format instanceof Error) return { error: `${format.name}: ${format.message}` };
  try {
    const result = format.format(values);
    return typeof result === "string" ? { text: result } : { other: JSON.stringify(result) };
  } catch (error) {
    return { error: `${error.name}: ${error.message}` };
  }
});
process.stdout.write(JSON.stringify(results));
