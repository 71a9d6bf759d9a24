package mcp

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// XMCPHeader is the JSON Schema keyword that mirrors a tool parameter into
// an Mcp-Param-{Name} HTTP header (DIGEST §4).
const XMCPHeader = "x-mcp-header"

// ParamHeaderPrefix starts every header built from an x-mcp-header binding.
const ParamHeaderPrefix = "Mcp-Param-"

// Rule ids of the static x-mcp-header checks. They match snapgauge's
// X-group ids where snapgauge has one, so findings line up across tools.
// A binding with any violation makes its whole tool invalid (clients on
// HTTP must drop it); warnings do not.
const (
	// XhdrEmpty: the header name is "" (XMH-NONEMPTY).
	XhdrEmpty = "xhdr.empty"
	// XhdrNotString: the x-mcp-header value is not a JSON string. Our own
	// id; snapgauge ignores such values.
	XhdrNotString = "xhdr.not_string"
	// XhdrControlChar: the header name holds U+0000–U+001F or U+007F.
	XhdrControlChar = "xhdr.control_char"
	// XhdrNotToken: the header name is not an RFC 9110 token (checked only
	// when non-empty and free of control characters) (XMH-TOKEN).
	XhdrNotToken = "xhdr.not_token"
	// XhdrNotUnique: the header name is bound more than once in the
	// schema, ignoring case (XMH-UNIQUE-CI).
	XhdrNotUnique = "xhdr.not_unique"
	// XhdrNonPrimitive: the bound schema's type is not string, integer or
	// boolean; number, absent, object and array all fail (XMH-PRIMITIVE).
	XhdrNonPrimitive = "xhdr.non_primitive"
	// XhdrUnsafeInteger: an integer schema's const, default, enum value or
	// bound is not a safe integer (XMH-INT-SAFE).
	XhdrUnsafeInteger = "xhdr.unsafe_integer"
	// XhdrNotStaticallyReachable: the annotation is not reachable from the
	// root through properties keys alone (XMH-STATIC-PATH).
	XhdrNotStaticallyReachable = "xhdr.not_statically_reachable"

	// XhdrSensitive (warning): the property or header name suggests a
	// secret or PII, which Base64 does not hide (XMH-SENSITIVE).
	XhdrSensitive = "xhdr.sensitive"
	// XhdrNullableType (warning): type is a list such as
	// ["string","null"]; the spec does not address it, we accept it and
	// treat null as absent (DIGEST §4 ambiguities).
	XhdrNullableType = "xhdr.nullable_type"
)

// A HeaderBinding is one x-mcp-header annotation found in a tool's
// inputSchema.
type HeaderBinding struct {
	// Path holds the property names from the schema root to the bound
	// property (["workspace"], ["a", "b"]); nil when the annotation is not
	// statically reachable.
	Path []string
	// PathString locates the annotated schema in the inputSchema as
	// dot-joined keys and indexes ("properties.workspace",
	// "oneOf.0.properties.id"); "" for the root.
	PathString string
	// Header is the {Name} part of Mcp-Param-{Name}, as written.
	Header string
	// Type is the bound schema's primitive type ("string", "integer",
	// "boolean"), or its type member as written when that is something
	// else (JSON text for lists), or "" when absent.
	Type string
	// Valid is true when Violations is empty.
	Valid bool
	// Violations lists rule ids that invalidate the tool.
	Violations []string
	// Warnings lists rule ids worth reporting that do not.
	Warnings []string
}

var errSchemaNotObject = errors.New("inputSchema is not a JSON object")

// HeaderBindings finds every x-mcp-header annotation in inputSchema and
// checks it against the rules of DIGEST §4. Bindings are sorted by
// PathString.
//
// The whole tree is scanned, as the spec asks: an annotation under items,
// oneOf/anyOf/allOf/not, if/then/else, $defs, $ref targets, or any keyword
// other than a chain of properties is reported as not statically
// reachable. Two places are not scanned because they hold data rather than
// schemas: the values of const, default, enum and examples (a default
// object that happens to contain an "x-mcp-header" member is not an
// annotation). Inside properties, patternProperties, $defs, definitions
// and dependentSchemas the member names are property or definition names,
// so a property literally called "x-mcp-header" is not an annotation
// either.
//
// It returns an error only when inputSchema is not a JSON object.
func HeaderBindings(inputSchema json.RawMessage) ([]HeaderBinding, error) {
	root, err := decodeNumbers(inputSchema)
	if err != nil {
		return nil, fmt.Errorf("x-mcp-header scan: %w", err)
	}
	obj, ok := root.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("x-mcp-header scan: %w", errSchemaNotObject)
	}
	var out []HeaderBinding
	walkSchema(obj, nil, true, &out)
	checkUnique(out)
	for i := range out {
		out[i].Valid = len(out[i].Violations) == 0
	}
	slices.SortFunc(out, func(a, b HeaderBinding) int { return strings.Compare(a.PathString, b.PathString) })
	return out, nil
}

// ToolHeadersValid reports whether no binding has a violation, that is,
// whether a conforming HTTP client keeps the tool.
func ToolHeadersValid(b []HeaderBinding) bool {
	for _, x := range b {
		if !x.Valid || len(x.Violations) > 0 {
			return false
		}
	}
	return true
}

// Keywords whose value is a map from names to schemas.
var schemaMapKeywords = map[string]bool{
	"properties": true, "patternProperties": true, "$defs": true, "definitions": true, "dependentSchemas": true,
}

// Keywords whose value is data, never a schema.
var dataKeywords = map[string]bool{
	"const": true, "default": true, "enum": true, "examples": true,
}

// walkSchema visits a schema object. path is the key path from the root;
// static says whether that path is properties.<name> pairs only.
func walkSchema(s map[string]any, path []string, static bool, out *[]HeaderBinding) {
	if v, ok := s[XMCPHeader]; ok {
		*out = append(*out, checkBinding(s, v, path, static))
	}
	for _, k := range sortedMapKeys(s) {
		if k == XMCPHeader || dataKeywords[k] {
			continue
		}
		v := s[k]
		if schemaMapKeywords[k] {
			m, ok := v.(map[string]any)
			if !ok {
				walkAny(v, appendPath(path, k), false, out)
				continue
			}
			for _, name := range sortedMapKeys(m) {
				sub, ok := m[name].(map[string]any)
				p := appendPath(path, k, name)
				if !ok {
					walkAny(m[name], p, false, out)
					continue
				}
				walkSchema(sub, p, static && k == "properties", out)
			}
			continue
		}
		walkAny(v, appendPath(path, k), false, out)
	}
}

// walkAny visits any value below a non-static step, treating every object
// as a possible schema.
func walkAny(v any, path []string, static bool, out *[]HeaderBinding) {
	switch x := v.(type) {
	case map[string]any:
		walkSchema(x, path, static, out)
	case []any:
		for i, e := range x {
			walkAny(e, appendPath(path, fmt.Sprint(i)), false, out)
		}
	}
}

func appendPath(path []string, elems ...string) []string {
	p := make([]string, 0, len(path)+len(elems))
	return append(append(p, path...), elems...)
}

func checkBinding(s map[string]any, v any, path []string, static bool) HeaderBinding {
	b := HeaderBinding{PathString: strings.Join(path, ".")}
	if static && len(path) > 0 {
		for i := 1; i < len(path); i += 2 {
			b.Path = append(b.Path, path[i])
		}
	} else {
		b.Violations = append(b.Violations, XhdrNotStaticallyReachable)
	}
	name, isString := v.(string)
	switch {
	case !isString:
		b.Violations = append(b.Violations, XhdrNotString)
	case name == "":
		b.Header = name
		b.Violations = append(b.Violations, XhdrEmpty)
	case hasControl(name):
		b.Header = name
		b.Violations = append(b.Violations, XhdrControlChar)
	case !IsToken(name):
		b.Header = name
		b.Violations = append(b.Violations, XhdrNotToken)
	default:
		b.Header = name
	}

	typ, nullable, ok := primitiveType(s["type"])
	b.Type = typ
	if !ok {
		b.Violations = append(b.Violations, XhdrNonPrimitive)
	} else if nullable {
		b.Warnings = append(b.Warnings, XhdrNullableType)
	}
	if ok && typ == "integer" && !integerBoundsSafe(s) {
		b.Violations = append(b.Violations, XhdrUnsafeInteger)
	}
	prop := ""
	if len(b.Path) > 0 {
		prop = b.Path[len(b.Path)-1]
	} else if len(path) > 0 {
		prop = path[len(path)-1]
	}
	if looksSensitive(prop) || looksSensitive(b.Header) {
		b.Warnings = append(b.Warnings, XhdrSensitive)
	}
	return b
}

// primitiveType reads a schema's type member. ok is true for "string",
// "integer" and "boolean", and for a list holding exactly one of those plus
// "null" (nullable true).
func primitiveType(t any) (typ string, nullable, ok bool) {
	isPrim := func(s string) bool { return s == "string" || s == "integer" || s == "boolean" }
	switch x := t.(type) {
	case nil:
		return "", false, false
	case string:
		return x, false, isPrim(x)
	case []any:
		var prim []string
		null := false
		for _, e := range x {
			s, _ := e.(string)
			switch {
			case s == "null":
				null = true
			case isPrim(s):
				prim = append(prim, s)
			default:
				prim = append(prim, "?")
			}
		}
		b, _ := json.Marshal(x)
		if len(prim) == 1 && prim[0] != "?" && null {
			return prim[0], true, true
		}
		if len(prim) == 1 && prim[0] != "?" && len(x) == 1 {
			return prim[0], false, true
		}
		return string(b), false, false
	default:
		b, _ := json.Marshal(x)
		return string(b), false, false
	}
}

var maxSafeInt = new(big.Rat).SetInt64(1<<53 - 1)

// integerBoundsSafe checks the numbers an integer schema states.
func integerBoundsSafe(s map[string]any) bool {
	var nums []any
	for _, k := range []string{"const", "default", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"} {
		if v, ok := s[k]; ok {
			nums = append(nums, v)
		}
	}
	if e, ok := s["enum"].([]any); ok {
		nums = append(nums, e...)
	}
	for _, v := range nums {
		n, ok := v.(json.Number)
		if !ok {
			continue // not a number: another rule's business (schema validity)
		}
		if !safeInteger(n) {
			return false
		}
	}
	return true
}

func safeInteger(n json.Number) bool {
	r, err := exactNumber(n)
	if err != nil || !r.IsInt() {
		return false
	}
	return new(big.Rat).Abs(r).Cmp(maxSafeInt) <= 0
}

// maxExponent bounds the decimal exponent exactNumber accepts, so that
// "1e999999999" from an untrusted peer cannot make big.Rat allocate
// gigabytes. No safe integer needs more than 16 digits.
const maxExponent = 400

var errNumberRange = errors.New("number exponent out of range")

// exactNumber converts JSON number text to an exact rational.
func exactNumber(n json.Number) (*big.Rat, error) {
	s := string(n)
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		exp := strings.TrimLeft(strings.TrimLeft(s[i+1:], "+-"), "0")
		if len(exp) > 6 {
			return nil, errNumberRange
		}
		if e, err := strconv.Atoi(exp); err == nil && e > maxExponent {
			return nil, errNumberRange
		}
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return nil, fmt.Errorf("invalid number %q", s)
	}
	return r, nil
}

var sensitiveWords = []string{
	"password", "passwd", "passphrase", "secret", "token", "apikey", "api_key", "api-key",
	"credential", "authorization", "auth", "cookie", "session", "privatekey", "private_key",
	"ssn", "creditcard", "credit_card", "cardnumber",
}

// looksSensitive is a heuristic on a property or header name.
func looksSensitive(name string) bool {
	n := strings.ToLower(name)
	for _, w := range sensitiveWords {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// checkUnique marks every binding whose header clashes, ignoring case,
// with another binding's.
func checkUnique(bs []HeaderBinding) {
	count := map[string]int{}
	for _, b := range bs {
		if b.Header != "" {
			count[strings.ToLower(b.Header)]++
		}
	}
	for i := range bs {
		if bs[i].Header != "" && count[strings.ToLower(bs[i].Header)] > 1 {
			bs[i].Violations = append(bs[i].Violations, XhdrNotUnique)
		}
	}
}

// IsToken reports whether s is an RFC 9110 token: one or more tchar
// (letters, digits and !#$%&'*+-.^_`|~).
func IsToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if isAlnum(c) || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0 {
			continue
		}
		return false
	}
	return true
}

func hasControl(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			return true
		}
	}
	return false
}

const (
	sentinelStart = "=?base64?"
	sentinelEnd   = "?="
)

// isSentinel reports whether s has the encoded form. The markers must not
// overlap, so "=?base64?=" is a literal.
func isSentinel(s string) bool {
	return len(s) >= len(sentinelStart)+len(sentinelEnd) &&
		strings.HasPrefix(s, sentinelStart) && strings.HasSuffix(s, sentinelEnd)
}

// EncodeHeaderValue returns v as an Mcp-Name or Mcp-Param-* header value,
// wrapped as =?base64?…?= when the plain form would be unsafe (§4 step 4):
// a non-ASCII byte or control character, a leading or trailing space or
// tab, or a plain value that already looks like the sentinel form.
func EncodeHeaderValue(v string) string {
	if !needsEncoding(v) {
		return v
	}
	return sentinelStart + base64.StdEncoding.EncodeToString([]byte(v)) + sentinelEnd
}

func needsEncoding(v string) bool {
	if v == "" {
		return false
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; c >= 0x80 || c < 0x20 || c == 0x7f {
			return true
		}
	}
	first, last := v[0], v[len(v)-1]
	if first == ' ' || first == '\t' || last == ' ' || last == '\t' {
		return true
	}
	return isSentinel(v)
}

// Errors of DecodeHeaderValue; both are grounds for -32020.
var (
	// ErrHeaderBase64 means a sentinel-wrapped value is not strict
	// standard Base64 of UTF-8 text.
	ErrHeaderBase64 = errors.New("invalid base64 in header value")
	// ErrHeaderChars means a literal value holds a control character or a
	// non-ASCII byte, which a conforming sender would have encoded.
	ErrHeaderChars = errors.New("invalid characters in header value")
)

// DecodeHeaderValue returns the value a header carries. The sentinel form
// is decoded with strict standard Base64 (padding required); its markers
// are lowercase and exact, so "=?BASE64?…?=" is a literal. The caller
// trims surrounding whitespace first, as HTTP does.
func DecodeHeaderValue(s string) (string, error) {
	if !isSentinel(s) {
		for i := 0; i < len(s); i++ {
			if c := s[i]; c >= 0x80 || (c < 0x20 && c != '\t') || c == 0x7f {
				return "", fmt.Errorf("%w: byte 0x%02x at %d", ErrHeaderChars, c, i)
			}
		}
		return s, nil
	}
	body := s[len(sentinelStart) : len(s)-len(sentinelEnd)]
	b, err := base64.StdEncoding.Strict().DecodeString(body)
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrHeaderBase64, err)
	}
	if !utf8.Valid(b) {
		return "", fmt.Errorf("%w: decoded bytes are not UTF-8", ErrHeaderBase64)
	}
	return string(b), nil
}

// ErrToolHeadersInvalid is returned by ParamHeaders for a tool with an
// invalid binding: conforming clients drop such a tool rather than call it.
var ErrToolHeadersInvalid = errors.New("tool has invalid x-mcp-header bindings")

// ParamHeaders builds the Mcp-Param-* headers for a tools/call from the
// tool's bindings and the call's arguments (§4 "How a client builds the
// headers"). Each element is {header name, header value}, in binding
// order. A value that is absent or null gives no header. Strings are sent
// as they are (encoded when unsafe), integers in decimal with every digit
// kept (42.0 is sent as 42), booleans as true/false. A number with a
// fraction, an object or an array at a bound path is an error.
func ParamHeaders(bindings []HeaderBinding, arguments json.RawMessage) ([][2]string, error) {
	if !ToolHeadersValid(bindings) {
		return nil, ErrToolHeadersInvalid
	}
	if len(bindings) == 0 {
		return nil, nil
	}
	var args map[string]any
	if len(bytes.TrimSpace(arguments)) > 0 {
		v, err := decodeNumbers(arguments)
		if err != nil {
			return nil, fmt.Errorf("tool arguments: %w", err)
		}
		switch x := v.(type) {
		case map[string]any:
			args = x
		case nil:
		default:
			return nil, errors.New("tool arguments: not a JSON object")
		}
	}
	var out [][2]string
	for _, b := range bindings {
		v, ok := lookupPath(args, b.Path)
		if !ok || v == nil {
			continue
		}
		s, err := headerString(v)
		if err != nil {
			return nil, fmt.Errorf("argument %s for header %s: %w", strings.Join(b.Path, "."), b.Header, err)
		}
		out = append(out, [2]string{ParamHeaderPrefix + b.Header, EncodeHeaderValue(s)})
	}
	return out, nil
}

func lookupPath(m map[string]any, path []string) (any, bool) {
	var cur any = m
	for _, p := range path {
		obj, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		cur, ok = obj[p]
		if !ok {
			return nil, false
		}
	}
	return cur, true
}

func headerString(v any) (string, error) {
	switch x := v.(type) {
	case string:
		return x, nil
	case bool:
		if x {
			return "true", nil
		}
		return "false", nil
	case json.Number:
		r, err := exactNumber(x)
		if err != nil {
			return "", err
		}
		if !r.IsInt() {
			return "", fmt.Errorf("%s is not an integer", x)
		}
		return r.Num().String(), nil
	default:
		return "", fmt.Errorf("value of JSON type %T cannot be a header", v)
	}
}

// decodeNumbers decodes one JSON value keeping numbers as json.Number, and
// rejects trailing data.
func decodeNumbers(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("trailing data after JSON value")
	}
	return v, nil
}

func sortedMapKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
