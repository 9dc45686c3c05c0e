package main

import (
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"lanchat/backend/archive/archivetest"
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

// `lanchatd import --name` names the organization, which the server then
// serves under that name; the progress it prints never passes 100% and
// ends there.
func TestImportNamesTheOrganization(t *testing.T) {
	export, err := archivetest.SlackExport([]archivetest.SlackPerson{{ID: "U1", Name: "Ada", Email: "ada@acme.test"},
		{ID: "U2", Name: "Bob", Email: "bob@acme.test"}}, 300)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "Acme Slack export Jan 1 2020 - Mar 5 2021.zip")
	if err := os.WriteFile(file, export, 0o600); err != nil {
		t.Fatal(err)
	}
	dataDir := filepath.Join(t.TempDir(), "data")
	cmd := exec.Command(binary, "import", "--data", dataDir, "--from", "slack", "--name", " Acme Engineering ", file)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("import: %v\n%s%s", err, stdout.String(), stderr.String())
	}
	if !strings.Contains(stdout.String(), `imported "Acme Engineering" into `) {
		t.Errorf("summary:\n%s", stdout.String())
	}
	percents := regexp.MustCompile(`(\d+)% of the archive read`).FindAllStringSubmatch(stderr.String(), -1)
	for _, p := range percents {
		if n, _ := strconv.Atoi(p[1]); n > 100 {
			t.Errorf("progress past 100%%:\n%s", stderr.String())
		}
	}
	if len(percents) == 0 || percents[len(percents)-1][1] != "100" {
		t.Errorf("progress does not end at 100%%:\n%s", stderr.String())
	}

	server, base := startServer(t, dataDir)
	defer stop(t, server)
	resp, err := http.Get(base + "/api/v1/server_settings")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var settings struct {
		RealmName string `json:"realm_name"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&settings); err != nil || settings.RealmName != "Acme Engineering" {
		t.Errorf("realm_name %q (%v), want the --name given", settings.RealmName, err)
	}
}
