// The reference for Parlance's `i18next` catalog format: renders keys with i18next itself.
//
// Reads JSON on stdin: {"lng": "de", "resources": {...one namespace's JSON...},
//                       "calls": [{"key": "cart.items", "options": {"count": 2}}, ...]}
// (or a list of such objects, to render several files in one run). Initializes a fresh i18next
// instance with those resources as the "translation" namespace of `lng` and every other option at
// its default, calls t(key, options) for each call, and prints a JSON list of the results (a list of
// lists for a list of jobs). A call that throws gives {"error": "..."} in its place.
import i18next from "i18next";

const readStdin = async () => {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8");
};

const render = async (job) => {
  const instance = i18next.createInstance();
  await instance.init({ lng: job.lng, resources: { [job.lng]: { translation: job.resources } } });
  return job.calls.map(({ key, options }) => {
    try {
      return options == null ? instance.t(key) : instance.t(key, options);
    } catch (error) {
      return { error: String(error?.message ?? error) };
    }
  });
};

const payload = JSON.parse(await readStdin());
const results = Array.isArray(payload) ? await Promise.all(payload.map(render)) : await render(payload);
process.stdout.write(JSON.stringify(results));
