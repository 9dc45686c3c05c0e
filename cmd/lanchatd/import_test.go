package main

import (
	"encoding/json"
	"net/http"
	"net/url"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const slackFixture = "../../backend/archive/slack/testdata/test_slack_importer.zip"

// `lanchatd import` turns Zulip's Slack fixture into a data folder a
// server then serves: it prints progress and the summary, the people log
// in (dev login here) and read the channels' history, threads as topics.
func TestImportSlackThenServe(t *testing.T) {
	dataDir := filepath.Join(t.TempDir(), "data")
	cmd := exec.Command(binary, "import", "--data", dataDir, "--from", "slack", slackFixture)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("import: %v\n%s%s", err, stdout.String(), stderr.String())
	}
	if !strings.Contains(stdout.String(), "4 users, 2 streams, 81 messages, 1 reactions, 0 files") ||
		!strings.Contains(stdout.String(), "file F8VDNT9FB (IMG_0677.JPG)") {
		t.Errorf("summary:\n%s", stdout.String())
	}
	if !strings.Contains(stderr.String(), "messages") || !strings.Contains(stderr.String(), "done") {
		t.Errorf("progress:\n%s", stderr.String())
	}
	if out, err := exec.Command(binary, "import", "--data", dataDir, "--from", "slack", slackFixture).CombinedOutput(); err == nil ||
		!strings.Contains(string(out), "is not empty") {
		t.Errorf("a second import into the same folder: %v %s", err, out)
	}

	server, base := startServer(t, dataDir, "--dev")
	defer stop(t, server)
	email := "rheaparekh12-u8w3qfgq5@slack.invalid"
	key, _ := post(t, base, "/api/v1/dev_fetch_api_key", url.Values{"username": {email}})["api_key"].(string)
	if key == "" {
		t.Fatal("no key for an imported user")
	}
	req, _ := http.NewRequest("GET", base+"/api/v1/messages?"+url.Values{"anchor": {"oldest"}, "num_before": {"0"}, "num_after": {"200"},
		"narrow": {`[{"operator":"stream","operand":"general"}]`}}.Encode(), nil)
	req.SetBasicAuth(email, key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var history struct {
		Messages []struct {
			Subject string   `json:"subject"`
			Flags   []string `json:"flags"`
		} `json:"messages"`
	}
	json.NewDecoder(resp.Body).Decode(&history)
	topics := map[string]int{}
	for _, m := range history.Messages {
		topics[m.Subject]++
		if !strings.Contains(strings.Join(m.Flags, " "), "read") {
			t.Errorf("an imported message is unread: %+v", m)
		}
	}
	if topics["imported from Slack"] == 0 || topics["2018-01-23 Slack thread 1"] != 3 {
		t.Errorf("topics %v", topics)
	}
}
