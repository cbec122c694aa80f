// A real OAuth 2 authorization server for the tests: oauth2-mock-server's issuer and service (metadata at
// /.well-known/openid-configuration, keys at /jwks, tokens at /token, RFC 7662 at /introspect), on a
// loopback port of its own choosing, printed as one line `{"url": ...}` on stdout once it listens.
//
// What the tests need beyond the library's own endpoints lives under /_test/ (never part of a real
// server): mint a token signed by a named key with the claims given (expired, another audience, ...),
// generate a new key (the issuer rotates: the JWKS now lists it), count the JWKS fetches, and tell
// /introspect which opaque tokens are active.
import http from "node:http";
import { OAuth2Issuer, OAuth2Service } from "oauth2-mock-server";

const issuer = new OAuth2Issuer();
await issuer.keys.generate("RS256", { kid: "key-1" });
const service = new OAuth2Service(issuer);
const counts = { jwks: 0, introspect: 0 };
const opaque = new Map(); // opaque token -> introspection answer

// The token endpoint's client-credentials grant: the client names its subject and audience (RFC 8707
// `resource`), as an authorization server that binds tokens to a resource does.
service.on("beforeTokenSigning", (token, req) => {
  const body = req.body ?? {};
  if (body.resource) token.payload.aud = body.resource;
  token.payload.sub = body.subject ?? body.client_id;
  token.payload.client_id = body.client_id;
});
service.on("beforeIntrospect", (response, req) => {
  counts.introspect += 1;
  const token = req.body?.token;
  const authorized = (req.headers.authorization ?? "") === "Basic " + Buffer.from("parlance:s3cret").toString("base64");
  response.body = authorized && opaque.has(token) ? opaque.get(token) : { active: false };
});

async function readJson(req) {
  let text = "";
  for await (const chunk of req) text += chunk;
  return text ? JSON.parse(text) : {};
}

async function control(req, res) {
  const body = await readJson(req);
  let answer;
  if (req.url === "/_test/mint") {
    answer = {
      token: await issuer.buildToken({
        kid: body.kid,
        expiresIn: body.expires_in ?? 3600,
        scopesOrTransform: (header, payload) => {
          Object.assign(header, body.header ?? {}); // e.g. a kid the issuer never published
          Object.assign(payload, body.claims ?? {});
        },
      }),
    };
  } else if (req.url === "/_test/rotate") {
    const key = await issuer.keys.generate("RS256", { kid: body.kid });
    answer = { kid: key.kid };
  } else if (req.url === "/_test/opaque") {
    opaque.set(body.token, body.answer);
    answer = {};
  } else if (req.url === "/_test/counts") {
    answer = counts;
  } else {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
}

const server = http.createServer((req, res) => {
  if (req.url.startsWith("/_test/")) {
    control(req, res).catch((err) => res.writeHead(500).end(String(err)));
    return;
  }
  if (req.url === "/jwks") counts.jwks += 1;
  if (req.url === "/introspect") {
    // RFC 7662 posts a form, which the library's introspection route does not parse: parse it here.
    let text = "";
    req.on("data", (chunk) => (text += chunk));
    req.on("end", () => {
      req.body = Object.fromEntries(new URLSearchParams(text));
      req._body = true; // body-parser's mark: already read
      service.requestHandler(req, res);
    });
    return;
  }
  service.requestHandler(req, res);
});
server.listen(0, "127.0.0.1", () => {
  issuer.url = `http://127.0.0.1:${server.address().port}`;
  process.stdout.write(JSON.stringify({ url: issuer.url }) + "\n");
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
