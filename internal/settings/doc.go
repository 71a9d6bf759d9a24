// Package settings reads .mcpward.toml, the file that gives the proxy
// (stdio shim and HTTP reverse proxy) the defaults its flags would
// otherwise set: label, trace file, redaction, OTLP export, hub socket.
//
//	label = "weather"
//	trace-file = "traces/weather.jsonl"
//
//	[redact]
//	secrets = true
//	keys = ["ssn", "account"]
//	values = ['acct-\d{4}']
//	paths = ["params.arguments.pin"]
//
//	[otlp]
//	endpoint = "http://127.0.0.1:4318/v1/traces"
//	headers = { "X-Team" = "infra" }
//
// Every key is also accepted in its flag's spelling (redact-key = "ssn",
// otlp-endpoint = …); [Keys] lists them all, and docs/config.md documents
// each (a test keeps the two in step).
//
// The file is real TOML. A key mcpward does not know is an error that names
// it (a typo must not silently turn redaction off), as is a bad value; both
// are marked [fault.ErrInput] (exit 4). A file over [MaxFileSize], a key of
// more than [MaxKeyParts] dotted parts or values nested deeper than
// [MaxNesting] are refused before decoding: the decoder's cost grows with
// their square.
//
// [Parse] is pure. [Find] and [Load] look for the file: the --config
// path if given, else ./.mcpward.toml, else the file of a tool mcpward
// replaces that the caller names as a [Foreign] (mcpsnoop's ./.mcpsnoop.toml,
// read by internal/migrate/mcpsnoopfiles, with [File.Notices] naming the
// .mcpward.toml equivalent of each key), else <XDG_CONFIG_HOME or ~/.config>/mcpward/config.toml. The first one found is
// used whole; files are not merged. Flags win over the file: [File.Flags]
// lists the file's values by flag name, and the command sets only the flags
// the user did not.
//
// A .mcpward.toml (or a foreign settings file) in the working directory may come
// with a cloned repository, so until the user trusts it ([Trust], `mcpward
// trust`; or [TrustEnv], or the proxy's --trust-config) its keys that would
// send data somewhere, write outside the state directory or read the
// environment (trace-file, hub-socket, otlp.*) are ignored and named in
// [File.Ignored]; the trust store keys a file by path and content hash.
// A file named with --config and the user's own config.toml are trusted.
package settings
