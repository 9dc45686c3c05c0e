package api_test

import (
	"fmt"
	"maps"
	"strings"
	"testing"

	"lanchat/backend/apitest"
)

func putStorage(c *apitest.Client, f apitest.Form) *apitest.Response {
	return c.Do("PUT", "/api/v1/bot_storage", "application/x-www-form-urlencoded", strings.NewReader(f.Encode()))
}

func storage(t *testing.T, c *apitest.Client, f apitest.Form) map[string]any {
	t.Helper()
	return c.Get("/api/v1/bot_storage", f).OK().Body["storage"].(map[string]any)
}

func TestBotStorage(t *testing.T) {
	s := apitest.Start(t)
	bot, alice := s.Login("echo-bot@example.com"), s.Login("alice@example.com")
	if got := storage(t, bot, nil); len(got) != 0 {
		t.Fatalf("new storage %v", got)
	}
	putStorage(bot, apitest.Form{"storage": map[string]string{"a": "1", "b": "2"}}).OK()
	putStorage(bot, apitest.Form{"storage": map[string]string{"a": "one"}}).OK()
	if got := storage(t, bot, nil); !maps.Equal(got, map[string]any{"a": "one", "b": "2"}) {
		t.Errorf("storage %v", got)
	}
	if got := storage(t, bot, apitest.Form{"keys": []string{"b"}}); !maps.Equal(got, map[string]any{"b": "2"}) {
		t.Errorf("storage of b %v", got)
	}
	// Each account has its own.
	if got := storage(t, alice, nil); len(got) != 0 {
		t.Errorf("alice sees %v", got)
	}

	refusals := []struct {
		name string
		res  *apitest.Response
		code string
		msg  string
	}{
		{"unknown key", bot.Get("/api/v1/bot_storage", apitest.Form{"keys": []string{"a", "zz"}}), "BAD_REQUEST", "Key does not exist."},
		{"a value that is not a string", putStorage(bot, apitest.Form{"storage": map[string]any{"n": 5}}), "BAD_REQUEST", `storage["n"] is not a string`},
		{"no storage", putStorage(bot, nil), "REQUEST_VARIABLE_MISSING", "Missing 'storage' argument"},
		{"storage not an object", putStorage(bot, apitest.Form{"storage": []int{1}}), "REQUEST_VARIABLE_INVALID", "Invalid storage: expected an object"},
		{"removing an unknown key", bot.Delete("/api/v1/bot_storage", apitest.Form{"keys": []string{"a", "zz"}}), "BAD_REQUEST", "Key does not exist."},
	}
	for _, r := range refusals {
		if r.res.Status != 400 || r.res.Body["code"] != r.code || r.res.Msg() != r.msg {
			t.Errorf("%s: %s, want %s %q", r.name, r.res, r.code, r.msg)
		}
	}
	// A refused removal removed nothing.
	if got := storage(t, bot, nil); len(got) != 2 {
		t.Errorf("after refusals %v", got)
	}
	bot.Delete("/api/v1/bot_storage", apitest.Form{"keys": []string{"a"}}).OK()
	if got := storage(t, bot, nil); !maps.Equal(got, map[string]any{"b": "2"}) {
		t.Errorf("after removing a %v", got)
	}
	bot.Delete("/api/v1/bot_storage", nil).OK()
	if got := storage(t, bot, nil); len(got) != 0 {
		t.Errorf("after removing all %v", got)
	}
}

// TestBotStorageLimit fills an account's storage to exactly Zulip's limit of
// ten million characters (keys and values, counted as characters, not bytes).
func TestBotStorageLimit(t *testing.T) {
	s := apitest.Start(t)
	bot := s.Login("echo-bot@example.com")
	value := strings.Repeat("x", 1_000_000-2)
	for i := range 10 {
		putStorage(bot, apitest.Form{"storage": map[string]string{fmt.Sprintf("k%d", i): value}}).OK()
	}
	res := putStorage(bot, apitest.Form{"storage": map[string]string{"k10": "é"}}).Fails(400, "BAD_REQUEST")
	if want := "Request exceeds storage limit by 4 characters. The limit is 10000000 characters."; res.Msg() != want {
		t.Errorf("over the limit: %q", res.Msg())
	}
	// Replacing a value counts the new size only.
	putStorage(bot, apitest.Form{"storage": map[string]string{"k0": "y", "k10": "é"}}).OK()
}
