package server

import (
	"encoding/json"
	"net/http/httptest"
	"path/filepath"
	"testing"
)

// While an import swaps the organization, every request gets a 503 in
// the API's error shape with a Retry-After, not a closed store's 500.
func TestRequestsDuringASwapAreAskedToRetry(t *testing.T) {
	s, err := Open(Config{DataDir: filepath.Join(t.TempDir(), "data")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Shutdown(t.Context()) })
	get := func() (int, map[string]any, string) {
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, httptest.NewRequest("GET", "/api/v1/server_settings", nil))
		var body map[string]any
		json.Unmarshal(w.Body.Bytes(), &body)
		return w.Code, body, w.Header().Get("Retry-After")
	}
	s.imports.swapping.Store(true)
	if status, body, retry := get(); status != 503 || body["result"] != "error" || body["msg"] == "" || retry == "" {
		t.Errorf("during the swap: %d %v, Retry-After %q", status, body, retry)
	}
	s.imports.swapping.Store(false)
	if status, body, _ := get(); status != 200 {
		t.Errorf("after the swap: %d %v", status, body)
	}
}
