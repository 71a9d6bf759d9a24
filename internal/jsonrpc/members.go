package jsonrpc

// Members calls fn with the name (the raw bytes between its quotes,
// escapes not decoded) and the raw value (no surrounding whitespace) of
// each member of the JSON object obj, in order, checking the syntax as it
// goes. It reports whether obj is one valid JSON object (surrounding
// whitespace allowed) and fn never returned false; fn may have been called
// for the members before an error. It lets a reader look at the envelope of
// a frame (a JSON-RPC message's id, method, result or error) without
// decoding its params or result.
func Members(obj []byte, fn func(name, value []byte) bool) bool {
	i := skipWS(obj, 0, false)
	if i >= len(obj) || obj[i] != '{' {
		return false
	}
	i = skipWS(obj, i+1, false)
	if i < len(obj) && obj[i] == '}' {
		return skipWS(obj, i+1, false) == len(obj)
	}
	for {
		if i >= len(obj) || obj[i] != '"' {
			return false
		}
		kEnd := skipString(obj, i, false)
		if kEnd < 0 {
			return false
		}
		vStart := skipWS(obj, kEnd, false)
		if vStart >= len(obj) || obj[vStart] != ':' {
			return false
		}
		vStart = skipWS(obj, vStart+1, false)
		end := scanValue(obj, vStart, false, maxDepth-1)
		if end < 0 || !fn(obj[i+1:kEnd-1], obj[vStart:end]) {
			return false
		}
		i = skipWS(obj, end, false)
		switch {
		case i >= len(obj):
			return false
		case obj[i] == '}':
			return skipWS(obj, i+1, false) == len(obj)
		case obj[i] != ',':
			return false
		}
		i = skipWS(obj, i+1, false)
	}
}

// Elements calls fn with the raw value of each element of the JSON array
// arr, in order, checking the syntax as it goes. It reports whether arr is
// one valid JSON array and fn never returned false.
func Elements(arr []byte, fn func(value []byte) bool) bool {
	i := skipWS(arr, 0, false)
	if i >= len(arr) || arr[i] != '[' {
		return false
	}
	i = skipWS(arr, i+1, false)
	if i < len(arr) && arr[i] == ']' {
		return skipWS(arr, i+1, false) == len(arr)
	}
	for {
		end := scanValue(arr, i, false, maxDepth-1)
		if end < 0 || !fn(arr[i:end]) {
			return false
		}
		i = skipWS(arr, end, false)
		switch {
		case i >= len(arr):
			return false
		case arr[i] == ']':
			return skipWS(arr, i+1, false) == len(arr)
		case arr[i] != ',':
			return false
		}
		i = skipWS(arr, i+1, false)
	}
}
