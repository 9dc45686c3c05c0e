package api_test

import (
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"

	"lanchat/backend/apitest"
)

// hook posts a JSON payload to an integration's URL.
func hook(c *apitest.Client, path, body string, header http.Header) *apitest.Response {
	saved := c.Header
	c.Header = header
	defer func() { c.Header = saved }()
	return c.Do("POST", path, "application/json", strings.NewReader(body))
}

func lastMessage(t *testing.T, c *apitest.Client, narrow string) map[string]any {
	t.Helper()
	msgs := c.Get("/api/v1/messages", apitest.Form{"anchor": "newest", "num_before": 1, "num_after": 0, "narrow": narrow, "apply_markdown": false}).OK().List("messages")
	if len(msgs) == 0 {
		t.Fatalf("no message in %s", narrow)
	}
	return msgs[0].(map[string]any)
}

func TestHelloWorldWebhook(t *testing.T) {
	s := apitest.Start(t)
	admin := s.Login("admin@example.com")
	key := s.Login("webhook-bot@example.com").Key()
	anon := s.Anonymous()
	payload := `{"featured_title": "Lanchat", "featured_url": "https://lanchat.example/"}`

	if res := hook(anon, "/api/v1/external/helloworld?api_key="+key+"&stream=general", payload, nil).OK(); res.Body["msg"] != "" {
		t.Errorf("answer %s", res.Raw)
	}
	m := lastMessage(t, admin, `[["stream","general"]]`)
	want := "Hello! I am happy to be here! :smile:\nThe Wikipedia featured article for today is **[Lanchat](https://lanchat.example/)**"
	if m["subject"] != "Hello World" || m["content"] != want || m["sender_email"] != "webhook-bot@example.com" || m["client"] != "ZulipHelloWorldWebhook" {
		t.Errorf("stream message %v", m)
	}
	// A stream by ID and a chosen topic.
	hook(anon, "/api/v1/external/helloworld?api_key="+key+"&stream=1&topic=greetings", payload, nil).OK()
	if m := lastMessage(t, admin, `[["stream","general"]]`); m["subject"] != "greetings" {
		t.Errorf("topic %v", m["subject"])
	}
	// No stream: a private message to the bot's owner.
	hook(anon, "/api/v1/external/helloworld?api_key="+key, payload, nil).OK()
	if m := lastMessage(t, admin, `[["pm-with","webhook-bot@example.com"]]`); m["content"] != want {
		t.Errorf("private message %v", m)
	}
	// An unknown stream: success for the caller, a note for the owner.
	hook(anon, "/api/v1/external/helloworld?api_key="+key+"&stream=nowhere", payload, nil).OK()
	if m := lastMessage(t, admin, `[["pm-with","webhook-bot@example.com"]]`); !strings.Contains(m["content"].(string), "does not exist") {
		t.Errorf("owner's note %v", m["content"])
	}
	// HTTP Basic works too.
	bot := s.As("webhook-bot@example.com", key)
	hook(bot, "/api/v1/external/helloworld?stream=general", payload, nil).OK()

	hook(anon, "/api/v1/external/helloworld?stream=general", payload, nil).Fails(401, "UNAUTHORIZED")
	hook(anon, "/api/v1/external/helloworld?api_key=wrong&stream=general", payload, nil).Fails(401, "INVALID_API_KEY")
	if res := hook(anon, "/api/v1/external/helloworld?api_key="+key+"&stream=general", `{"featured_title": "x"}`, nil).Fails(400, "BAD_REQUEST"); !strings.Contains(res.Msg(), "featured_url") {
		t.Errorf("missing key msg %q", res.Msg())
	}
	hook(anon, "/api/v1/external/nosuch?api_key="+key, payload, nil).Fails(400, "BAD_REQUEST")
}

func TestGiteaWebhookEndToEnd(t *testing.T) {
	s := apitest.Start(t)
	key := s.Login("webhook-bot@example.com").Key()
	alice := s.Login("alice@example.com")
	body, err := os.ReadFile("../integrations/testdata/gitea_push.json")
	if err != nil {
		t.Fatal(err)
	}
	hook(s.Anonymous(), "/api/v1/external/gitea?api_key="+key+"&stream=general", string(body), http.Header{"X-Gitea-Event": {"push"}}).OK()
	m := lastMessage(t, alice, `[["stream","general"]]`)
	if m["subject"] != "ops/infra / main" || !strings.HasPrefix(m["content"].(string), "**alice** pushed [2 commits]") || m["client"] != "ZulipGiteaWebhook" {
		t.Errorf("gitea message %v", m)
	}
	// Gitea's form encoding carries the same JSON in a payload field.
	form := url.Values{"payload": {string(body)}}.Encode()
	hook(s.Anonymous(), "/api/v1/external/gitea?api_key="+key+"&stream=general&topic=deploys", form,
		http.Header{"X-Gitea-Event": {"push"}, "Content-Type": {"application/x-www-form-urlencoded"}}).OK()
	if m := lastMessage(t, alice, `[["stream","general"]]`); m["subject"] != "deploys" || !strings.HasPrefix(m["content"].(string), "**alice** pushed [2 commits]") {
		t.Errorf("gitea form message %v", m)
	}
	// An event Gitea sends that is not posted is answered as Zulip does:
	// HTTP 200 (Gitea keeps the webhook) with an error Gitea shows in
	// its delivery log, naming the event.
	res := hook(s.Anonymous(), "/api/v1/external/gitea?api_key="+key+"&stream=general", `{"forkee": {}}`, http.Header{"X-Gitea-Event": {"fork"}}).
		Fails(200, "UNSUPPORTED_WEBHOOK_EVENT_TYPE")
	if res.Msg() != "The Gitea event 'fork' is not supported: ignored" || res.Body["event_type"] != "fork" || res.Body["webhook_name"] != "Gitea" {
		t.Errorf("unsupported event: %s", res.Raw)
	}
}

func TestJSONWebhookTakesTheTopicParameter(t *testing.T) {
	s := apitest.Start(t)
	key := s.Login("webhook-bot@example.com").Key()
	hook(s.Anonymous(), "/api/v1/external/json?api_key="+key+"&stream=general&topic=backups", `{"ok": true}`, nil).OK()
	m := lastMessage(t, s.Login("alice@example.com"), `[["stream","general"]]`)
	if m["subject"] != "backups" || m["content"] != "```json\n{\n  \"ok\": true\n}\n```" || m["client"] != "ZulipJSONWebhook" {
		t.Errorf("json message %v", m)
	}
}

// Alertmanager's `name` parameter files each alert under its own topic:
// one delivery, one message per topic, each sent as the bot.
func TestAlertmanagerWebhookPostsOneMessagePerTopic(t *testing.T) {
	s := apitest.Start(t)
	key := s.Login("webhook-bot@example.com").Key()
	alice := s.Login("alice@example.com")
	body := `{"version": "4", "status": "firing", "receiver": "lanchat", "groupLabels": {}, "externalURL": "http://am.lan:9093", "alerts": [
		{"status": "firing", "labels": {"alertname": "DiskFull", "host": "db1"}, "annotations": {"summary": "/srv is 97% full"}},
		{"status": "firing", "labels": {"alertname": "HighLoad", "host": "db2"}, "annotations": {"summary": "load 12"}}]}`
	hook(s.Anonymous(), "/api/v1/external/alertmanager?api_key="+key+"&stream=general&name=host&desc=summary", body, nil).OK()
	for topic, line := range map[string]string{"db1": "* `/srv is 97% full`", "db2": "* `load 12`"} {
		m := lastMessage(t, alice, `[["stream","general"],["topic","`+topic+`"]]`)
		if !strings.HasSuffix(m["content"].(string), line) || m["client"] != "ZulipAlertmanagerWebhook" {
			t.Errorf("topic %s: %v", topic, m)
		}
	}
	// The URL's topic overrides every one of them.
	hook(s.Anonymous(), "/api/v1/external/alertmanager?api_key="+key+"&stream=general&name=host&topic=oncall", body, nil).OK()
	msgs := alice.Get("/api/v1/messages", apitest.Form{"anchor": "newest", "num_before": 5, "num_after": 0,
		"narrow": `[["stream","general"],["topic","oncall"]]`}).OK().List("messages")
	if len(msgs) != 2 {
		t.Errorf("%d messages in oncall, want 2", len(msgs))
	}
}

// Very large deliveries: one under the body limit is posted, cut to fit,
// with how much was left out; one over it gets a JSON 413, never a 500.
func TestWebhookLargePayloads(t *testing.T) {
	s := apitest.Start(t)
	key := s.Login("webhook-bot@example.com").Key()
	alice := s.Login("alice@example.com")
	var alerts []string
	for i := range 5000 {
		alerts = append(alerts, fmt.Sprintf(`{"status": "firing", "labels": {"alertname": "DiskFull", "instance": "node%04d:9100"},
			"annotations": {"summary": "%s"}, "generatorURL": "http://prom.lan:9090/graph?g0.expr=disk&g0.tab=1"}`, i, strings.Repeat("full ", 40)))
	}
	body := `{"version": "4", "status": "firing", "groupLabels": {"alertname": "DiskFull"}, "truncatedAlerts": 100, "alerts": [` + strings.Join(alerts, ",") + `]}`
	if len(body) < 1<<20 || len(body) > 4<<20 {
		t.Fatalf("payload of %d bytes", len(body))
	}
	hook(s.Anonymous(), "/api/v1/external/alertmanager?api_key="+key+"&stream=general", body, nil).OK()
	content := lastMessage(t, alice, `[["stream","general"],["topic","DiskFull"]]`)["content"].(string)
	if len(content) > 10000 || !strings.Contains(content, " more alerts not shown.*") || strings.Contains(content, "[message truncated]") {
		t.Errorf("%d bytes, ending %q", len(content), content[len(content)-60:])
	}

	huge := `{"pad": "` + strings.Repeat("x", 5<<20) + `"}`
	if res := hook(s.Anonymous(), "/api/v1/external/json?api_key="+key+"&stream=general", huge, nil).Fails(413, "BAD_REQUEST"); !strings.Contains(res.Msg(), "too large") {
		t.Errorf("oversized: %s", res.Raw)
	}
}
