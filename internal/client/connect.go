package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"

	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/jsonrpc"
	"github.com/mcpward/mcpward/internal/mcp"
	"github.com/mcpward/mcpward/internal/transport"
)

// ErrTrySSE means a server answered neither a modern request nor a
// Streamable HTTP initialize in a recognisable way: per the specification
// the client should try the deprecated HTTP+SSE transport (a GET on the
// URL). The caller re-dials with transport.DialSSE.
var ErrTrySSE = errors.New("server did not speak Streamable HTTP; try the HTTP+SSE transport")

// discoverProbeID is the id of the era probe. It is a string no later
// request uses, so a late reply to it cannot be mistaken for another answer.
var discoverProbeID = jsonrpc.StringID("mcpward-era-probe")

// Handshake records how the era was decided.
type Handshake struct {
	Era     mcp.Era
	Version string
	// Discover is the server/discover answer (a result or an error), if any.
	Discover *Response
	// DiscoverFailure is why server/discover got no answer (a timeout on a
	// legacy server that ignores unknown methods), if so.
	DiscoverFailure error
	// Initialize is the initialize answer, if the legacy path was taken.
	Initialize *Response
	// Steps says what was tried, in order, for notes and --verbose output.
	Steps []string
}

// Connect detects the server's era and performs the handshake (DIGEST §1.4):
// server/discover first; a result or a recognised modern error (-32022,
// -32020, -32021) means modern, with a retry at a version from
// data.supported on -32022; any other error or a timeout means legacy, and
// then initialize + notifications/initialized. A DiscoverResult whose
// supportedVersions lacks the version asked for is the server saying it
// does not serve it: another modern version it lists is tried, and a list
// of legacy versions only means initialize at the newest of them. On HTTP
// a 4xx or 5xx body is read before falling back, and a server that fails
// initialize too with an unrecognised 400/404/405 yields ErrTrySSE.
func (c *Client) Connect(ctx context.Context) (*Handshake, error) {
	hs := &Handshake{}
	if c.opts.Era == mcp.EraLegacy {
		return hs, c.initialize(ctx, hs, string(c.opts.LegacyVersion), true)
	}
	version := string(c.opts.Version)
	for attempt := 0; attempt < 2; attempt++ {
		resp, err := c.discover(ctx, version)
		hs.Discover = resp
		switch {
		case err != nil && isTimeout(err) && c.conn.Kind() != "http":
			hs.DiscoverFailure = err
			hs.Steps = append(hs.Steps, fmt.Sprintf("server/discover (%s): no answer within %s → legacy", version, c.opts.DiscoverTimeout))
			if c.opts.Era == mcp.EraModern {
				return hs, err
			}
			ierr := c.initialize(ctx, hs, string(c.opts.LegacyVersion), true)
			late := c.lateDiscover(version)
			if late == nil {
				return hs, ierr
			}
			// The server was slow to start, not silent: it answered the
			// era probe once initialize was on its way, and that answer
			// decides the era as it would have in time (else the era,
			// and every snapshot, would follow the machine's load).
			hs.Steps = append(hs.Steps, "server/discover answered after the fallback to initialize: its answer decides the era")
			hs.Discover, hs.DiscoverFailure, hs.Initialize = late, nil, nil
			resp = late
		case err != nil:
			var he *HTTPError
			if errors.As(err, &he) && !he.Auth() && he.Info.Status >= 400 {
				// An empty or unrecognised 4xx body means legacy. A 5xx
				// is no recognised modern answer either: a legacy server
				// that fails an unknown method before any session (HTTP
				// 500, -32603) still serves initialize (DIGEST §1.4: any
				// non-modern answer means legacy).
				hs.DiscoverFailure = err
				hs.Steps = append(hs.Steps, fmt.Sprintf("server/discover: HTTP %d without a modern error → legacy", he.Info.Status))
				if c.opts.Era == mcp.EraModern {
					return hs, err
				}
				return hs, c.initialize(ctx, hs, string(c.opts.LegacyVersion), true)
			}
			return hs, err
		}
		if resp.Msg.Error == nil {
			supported, listed := discoverVersions(resp.Msg.Result)
			if !listed || slices.Contains(supported, version) {
				hs.Steps = append(hs.Steps, fmt.Sprintf("server/discover (%s): result → modern", version))
				c.setEra(mcp.EraModern, version)
				hs.Era, hs.Version = mcp.EraModern, version
				return hs, nil
			}
			// A DiscoverResult that does not list the version asked for:
			// the server said it does not serve it, so it is never judged
			// at it. Another modern version is tried; only legacy ones
			// mean the legacy handshake (DIGEST §1.4).
			hs.Steps = append(hs.Steps, fmt.Sprintf("server/discover (%s): result lists %v, not %s", version, supported, version))
			if next := pickModern(supported, version); next != "" {
				version = next
				continue
			}
			legacy := pickLegacy(supported)
			switch {
			case legacy == "":
				// Nothing listed that mcpward knows (a draft date): the
				// result was served at the version asked for, so that is
				// the version the server is judged at.
				hs.Steps = append(hs.Steps, fmt.Sprintf("no version mcpward knows listed → modern at %s", version))
				c.setEra(mcp.EraModern, version)
				hs.Era, hs.Version = mcp.EraModern, version
				return hs, nil
			case c.opts.Era == mcp.EraModern:
				return hs, fault.Incomplete(fmt.Errorf("server/discover: the server lists only legacy versions (%v), and the era was forced to modern", supported))
			}
			hs.Steps = append(hs.Steps, "only legacy versions listed → legacy")
			return hs, c.initialize(ctx, hs, legacy, false)
		}
		code := resp.Msg.Error.Code
		if !mcp.IsModernError(code) || (c.conn.Kind() == "http" && resp.HTTPStatus() == http.StatusNotFound && code == mcp.CodeMethodNotFound) {
			hs.Steps = append(hs.Steps, fmt.Sprintf("server/discover: error %d → legacy", code))
			if c.opts.Era == mcp.EraModern {
				return hs, fault.Incomplete(fmt.Errorf("server/discover: server answered error %d (%s): not a modern server", code, resp.Msg.Error.Message))
			}
			return hs, c.initialize(ctx, hs, string(c.opts.LegacyVersion), true)
		}
		if code != mcp.CodeUnsupportedProtocolVersion {
			// -32020 or -32021 on discover: the server is modern but rejects
			// our envelope. Keep the error as evidence.
			hs.Steps = append(hs.Steps, fmt.Sprintf("server/discover: modern error %d", code))
			c.setEra(mcp.EraModern, version)
			hs.Era, hs.Version = mcp.EraModern, version
			return hs, nil
		}
		supported := supportedVersions(resp.Msg.Error.Data)
		next := pickModern(supported, version)
		hs.Steps = append(hs.Steps, fmt.Sprintf("server/discover (%s): -32022, server supports %v", version, supported))
		if next == "" {
			// Only legacy versions offered: the server wants the handshake.
			if legacy := pickLegacy(supported); legacy != "" && c.opts.Era != mcp.EraModern {
				return hs, c.initialize(ctx, hs, legacy, false)
			}
			return hs, fault.Incomplete(fmt.Errorf("server/discover: server supports none of the versions mcpward speaks (it lists %v)", supported))
		}
		version = next
	}
	return hs, fault.Incomplete(fmt.Errorf("server/discover: version negotiation did not converge"))
}

// lateDiscover returns the answer to the era probe at version that came
// after its wait ended, when it says the server is modern (a result that
// lists version or lists nothing, or a recognised modern error); nil
// otherwise (no late answer, -32601, only legacy versions listed: the
// legacy handshake already made stands).
func (c *Client) lateDiscover(version string) *Response {
	lr, ok := c.conn.(interface {
		LateReply(jsonrpc.ID) (jsonrpc.Message, bool)
	})
	if !ok {
		return nil
	}
	m, ok := lr.LateReply(discoverProbeID)
	if !ok {
		return nil
	}
	if m.Error != nil {
		if !mcp.IsModernError(m.Error.Code) {
			return nil
		}
	} else if supported, listed := discoverVersions(m.Result); listed && !slices.Contains(supported, version) && pickModern(supported, version) == "" {
		return nil
	}
	return &Response{Method: mcp.MethodDiscover, Reply: &transport.Reply{Response: &m}, Msg: &m}
}

// A quietError says msg and wraps err without repeating it, so that the
// kinds err carries (a timeout) stay visible to errors.Is.
type quietError struct {
	msg string
	err error
}

func (e *quietError) Error() string { return e.msg }
func (e *quietError) Unwrap() error { return e.err }

func (c *Client) discover(ctx context.Context, version string) (*Response, error) {
	id := discoverProbeID
	return c.Request(ctx, mcp.MethodDiscover, json.RawMessage(`{}`), &RequestOptions{
		Version: version,
		Timeout: c.opts.DiscoverTimeout,
		ID:      &id,
	})
}

// initialize runs the legacy handshake. retry allows one more attempt at a
// version the server names in an error's data.supported.
func (c *Client) initialize(ctx context.Context, hs *Handshake, version string, retry bool) error {
	params := map[string]any{
		"protocolVersion": version,
		"capabilities":    c.opts.Capabilities,
		"clientInfo":      c.opts.ClientInfo,
	}
	resp, err := c.Request(ctx, mcp.MethodInitialize, params, &RequestOptions{Version: version, OmitMeta: true})
	hs.Initialize = resp
	if err != nil {
		var he *HTTPError
		if errors.As(err, &he) && !he.Auth() && (he.Info.Status == 400 || he.Info.Status == 404 || he.Info.Status == 405) {
			return ErrTrySSE
		}
		if hs.DiscoverFailure != nil && isTimeout(err) {
			// Both waits in full: the era probe's, then initialize's.
			return fault.Incomplete(&quietError{fmt.Sprintf("server answered neither server/discover nor initialize: waited %s (%s, then %s)",
				c.opts.DiscoverTimeout+c.opts.RequestTimeout, c.opts.DiscoverTimeout, c.opts.RequestTimeout), err})
		}
		return err
	}
	if e := resp.Msg.Error; e != nil {
		if retry {
			if v := pickLegacy(supportedVersions(e.Data)); v != "" && v != version {
				hs.Steps = append(hs.Steps, fmt.Sprintf("initialize (%s): error %d, retrying at %s", version, e.Code, v))
				return c.initialize(ctx, hs, v, false)
			}
		}
		if c.conn.Kind() == "http" && (resp.HTTPStatus() == 400 || resp.HTTPStatus() == 404 || resp.HTTPStatus() == 405) && !mcp.IsModernError(e.Code) && e.Code != mcp.CodeMethodNotFound {
			return ErrTrySSE
		}
		return fault.Incomplete(fmt.Errorf("initialize: server answered error %d: %s", e.Code, e.Message))
	}
	var res struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	if err := json.Unmarshal(resp.Msg.Result, &res); err != nil || res.ProtocolVersion == "" {
		return fault.Incomplete(fmt.Errorf("initialize: result has no protocolVersion"))
	}
	hs.Steps = append(hs.Steps, fmt.Sprintf("initialize (%s): server chose %s", version, res.ProtocolVersion))
	c.setEra(mcp.EraLegacy, res.ProtocolVersion)
	hs.Era, hs.Version = mcp.EraLegacy, res.ProtocolVersion
	if _, err := c.Notify(ctx, mcp.NotificationInitialized, nil); err != nil {
		return fmt.Errorf("send notifications/initialized: %w", err)
	}
	return nil
}

func (c *Client) setEra(era mcp.Era, version string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.era, c.version = era, version
}

func isTimeout(err error) bool {
	return errors.Is(err, context.DeadlineExceeded) || errors.Is(err, transport.ErrTimeout)
}

// supportedVersions reads data.supported of an error (-32022 or a legacy
// initialize rejection).
func supportedVersions(data json.RawMessage) []string {
	var d struct {
		Supported []string `json:"supported"`
	}
	if len(data) == 0 || json.Unmarshal(data, &d) != nil {
		return nil
	}
	return d.Supported
}

// discoverVersions reads supportedVersions of a DiscoverResult; listed is
// false when the member is absent or not a list of strings (the result is
// then taken at its word: it answered at the version asked for).
func discoverVersions(result json.RawMessage) (versions []string, listed bool) {
	var d struct {
		SupportedVersions []string `json:"supportedVersions"`
	}
	if json.Unmarshal(result, &d) != nil || d.SupportedVersions == nil {
		return nil, false
	}
	return d.SupportedVersions, true
}

// pickModern returns the newest modern version in supported other than
// tried, or "".
func pickModern(supported []string, tried string) string {
	best := ""
	for _, v := range supported {
		if v == tried || mcp.Revision(v).Era() != mcp.EraModern {
			continue
		}
		if best == "" || v > best {
			best = v
		}
	}
	return best
}

// pickLegacy returns the newest legacy revision mcpward knows among
// supported, or "".
func pickLegacy(supported []string) string {
	var known []string
	for _, v := range supported {
		if r, ok := mcp.ParseRevision(v); ok && r.Era() == mcp.EraLegacy {
			known = append(known, v)
		}
	}
	if len(known) == 0 {
		return ""
	}
	return slices.Max(known)
}

func isExit(err error) bool { return errors.Is(err, transport.ErrExited) }
