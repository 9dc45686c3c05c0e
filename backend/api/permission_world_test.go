package api_test

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"lanchat/backend/apitest"
)

// world is what the matrix's probes refer to, set up by newWorld on a
// test server of the demo organization.
type world struct {
	// Scoped probes ask about the target: the secret stream unless
	// aboutRandom() swaps it; missing() swaps it and alice's own things for
	// twins that do not exist.
	target
	onRandom target // random, which guests do not see either

	// Own probes ask about alice's things.
	queue, spareQueue string // alice's event queues
	ownUpload         string // alice's, linked nowhere
	tusUpload         string // alice's unfinished resumable upload's path
	spareAttachment   int64  // the ID of an upload of alice's that a probe may delete
	storageKey        string // in alice's bot storage
	alertWord         string // alice's
	scheduled         int64  // alice's scheduled message, which a probe may edit
	spareScheduled    int64  // and one a probe may cancel
	spareSnippet      int64  // alice's saved snippet a probe may delete
	botEmail          string // alice's bot

	// Role probes act on these.
	randomID, doomedID        int64 // public streams
	generalMsg                int64 // in general
	editMsg                   int64 // alice's, in general
	topicMsg, topicMsg2       int64 // alice's, in general
	moveMsg                   int64 // alice's, in general
	adminID, bobID, carolID   int64 // carol is deactivated
	filterID                  int64
	profileFieldID            int64
	playgroundID              int64
	groupID, spareGroupID     int64
	subgroupID                int64 // for groupID to take as a subgroup
	botID, botID2             int64 // alice's bots
	inviteID, inviteID2       int64 // alice's email invitations
	inviteLinkID              int64 // the administrator's reusable link
	emoji, emoji2             string
	echoKey, webhookKey, png  string
	admin, alice, bob, guest  *apitest.Client
	echo, aliceBot, aliceBot2 *apitest.Client
	webhookBot                *apitest.Client // an incoming-webhook bot
}

// startWorld starts a server and builds the world on it.
func startWorld(t *testing.T) (*apitest.Server, world) {
	s := apitest.Start(t)
	return s, newWorld(t, s)
}

// newWorld builds the world on s.
func newWorld(t *testing.T, s *apitest.Server) world {
	t.Helper()
	w := world{png: apitest.PNG(t, 8), storageKey: "alice-key", alertWord: "zebrafish"}
	w.admin, w.alice, w.bob, w.guest, w.echo = s.Login("admin@example.com"), s.Login("alice@example.com"),
		s.Login("bob@example.com"), s.Login("guest@example.com"), s.Login("echo-bot@example.com")
	w.webhookBot = s.Login("webhook-bot@example.com")
	w.echoKey, w.webhookKey = w.echo.Key(), w.webhookBot.Key()
	// Read receipts are off by default; on, their route tells who may ask.
	w.admin.Patch("/api/v1/realm", apitest.Form{"enable_read_receipts": true}).OK()
	w.target = w.newTarget(t, "secret", "hidden", "vault", true)
	w.onRandom = w.newTarget(t, "random", "quiet", "attic", false)
	w.setUpOwn(t)
	w.setUpRoles(t, s)
	return w
}

// newTarget has alice post in stream a message about word, an upload
// linked only there and a spare message, and create spare, a stream of
// hers and the administrator's like it.
func (w *world) newTarget(t *testing.T, stream, word, spare string, private bool) target {
	t.Helper()
	tg := target{stream: stream, streamID: w.idOf(stream), word: word}
	tg.msg = send(t, w.alice, streamMsg(stream, "plans", "the "+word+" plan"))
	tg.upload = w.uploadFile("plan.txt", word)
	send(t, w.alice, streamMsg(stream, "plans", "[plan]("+tg.upload+")"))
	tg.spareMsg = send(t, w.alice, streamMsg(stream, "plans", "another "+word+" plan"))
	w.alice.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": []map[string]string{{"name": spare}},
		"invite_only": private, "principals": []string{"alice@example.com", "admin@example.com"}}).OK()
	tg.spareStreamID = w.idOf(spare)
	return tg
}

// setUpOwn gives alice things of her own.
func (w *world) setUpOwn(t *testing.T) {
	t.Helper()
	w.queue, w.spareQueue = registerQueue(t, w.alice, nil).id, registerQueue(t, w.alice, nil).id
	w.ownUpload = w.uploadFile("diary.txt", "mine alone")
	w.alice.Header = http.Header{"Upload-Length": {"100"}}
	w.tusUpload = w.alice.Do("POST", "/api/v1/tus", "", nil).Header.Get("Location")
	w.alice.Header = nil
	w.uploadFile("spare.txt", "to delete")
	for _, a := range w.alice.Get("/api/v1/attachments", nil).OK().List("attachments") {
		if a := a.(map[string]any); a["name"] == "spare.txt" {
			w.spareAttachment = int64(a["id"].(float64))
		}
	}
	w.alice.Post("/api/v1/users/me/alert_words", apitest.Form{"alert_words": []string{w.alertWord}}).OK()
	later := fmt.Sprint(time.Now().Add(24 * time.Hour).Unix())
	for _, id := range []*int64{&w.scheduled, &w.spareScheduled} {
		*id = w.alice.Post("/api/v1/scheduled_messages", apitest.Form{"type": "stream", "to": "general", "topic": "later",
			"content": "scheduled plan", "scheduled_delivery_timestamp": later}).OK().Int("scheduled_message_id")
	}
	w.alice.Do("PUT", "/api/v1/bot_storage", "application/x-www-form-urlencoded",
		strings.NewReader(apitest.Form{"storage": map[string]string{w.storageKey: "v"}}.Encode())).OK()
	w.alice.Post("/api/v1/saved_snippets", apitest.Form{"title": "kept", "content": "snippet plan"}).OK()
	w.spareSnippet = w.alice.Post("/api/v1/saved_snippets", apitest.Form{"title": "spare", "content": "spare snippet"}).OK().Int("saved_snippet_id")
	w.alice.Post("/api/v1/users/me/presence", apitest.Form{"status": "active"}).OK()
}

// setUpRoles makes what role probes act on.
func (w *world) setUpRoles(t *testing.T, s *apitest.Server) {
	t.Helper()
	alice, admin := w.alice, w.admin
	w.randomID = w.idOf("random")
	admin.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": []map[string]string{{"name": "doomed"}}}).OK()
	w.doomedID = w.idOf("doomed")
	w.generalMsg = send(t, alice, streamMsg("general", "roles", "keep me"))
	w.editMsg = send(t, alice, streamMsg("general", "roles", "mine to edit"))
	w.topicMsg = send(t, alice, streamMsg("general", "roles", "mine to retopic"))
	w.topicMsg2 = send(t, alice, streamMsg("general", "roles", "mine to retopic too"))
	w.moveMsg = send(t, alice, streamMsg("general", "roles", "only an administrator moves me to another stream"))
	ids := map[string]int64{}
	for _, m := range admin.Get("/api/v1/users", nil).OK().List("members") {
		u := m.(map[string]any)
		ids[u["email"].(string)] = int64(u["user_id"].(float64))
	}
	w.adminID, w.bobID = ids["admin@example.com"], ids["bob@example.com"]
	w.carolID = admin.Post("/api/v1/users", apitest.Form{"email": "carol@example.com", "password": "carol-pass", "full_name": "Carol Cole"}).OK().Int("user_id")
	admin.Delete(fmt.Sprintf("/api/v1/users/%d", w.carolID), nil).OK()
	w.filterID = admin.Post("/api/v1/realm/filters", apitest.Form{"pattern": `#(?P<id>[0-9]+)`, "url_template": "https://x.lan/{id}"}).OK().Int("id")
	w.profileFieldID = admin.Post("/api/v1/realm/profile_fields", apitest.Form{"name": "Office", "field_type": 1}).OK().Int("id")
	w.playgroundID = admin.Post("/api/v1/realm/playgrounds", apitest.Form{"name": "Go", "pygments_language": "Go", "url_template": "https://go.lan/?c={code}"}).OK().Int("id")
	group := func(name string) int64 {
		alice.Post("/api/v1/user_groups/create", apitest.Form{"name": name, "members": []int64{ids["alice@example.com"]}}).OK()
		return int64(groupNamed(t, alice, name)["id"].(float64))
	}
	w.groupID, w.spareGroupID, w.subgroupID = group("design"), group("spare"), group("subteam")
	bot := func(short string) (int64, *apitest.Client) {
		res := alice.Post("/api/v1/bots", apitest.Form{"full_name": "Alice " + short, "short_name": short}).OK()
		return res.Int("user_id"), s.As(res.Str("email"), res.Str("api_key"))
	}
	w.botID, w.aliceBot = bot("helper")
	w.botID2, w.aliceBot2 = bot("helper2")
	w.botEmail = w.aliceBot.Email()
	invite := func(email string) int64 {
		alice.Post("/api/v1/invites", apitest.Form{"invitee_emails": email, "stream_ids": []int64{}}).OK()
		invites := alice.Get("/api/v1/invites", nil).OK().List("invites")
		return int64(invites[len(invites)-1].(map[string]any)["id"].(float64))
	}
	w.inviteID, w.inviteID2 = invite("dora@example.com"), invite("eli@example.com")
	admin.Post("/api/v1/invites/multiuse", nil).OK()
	for _, inv := range admin.Get("/api/v1/invites", nil).OK().List("invites") {
		if inv := inv.(map[string]any); inv["is_multiuse"] == true {
			w.inviteLinkID = int64(inv["id"].(float64))
		}
	}
	w.emoji, w.emoji2 = "alices_own", "alices_other"
	for _, name := range []string{w.emoji, w.emoji2} {
		upload(alice, name, "e.png", w.png).OK()
	}
}

func (w *world) idOf(name string) int64 {
	return w.admin.Get("/api/v1/get_stream_id", apitest.Form{"stream": name}).OK().Int("stream_id")
}

func (w *world) uploadFile(name, content string) string {
	return w.alice.PostMultipart("/api/v1/user_uploads", nil, map[string][2]string{"f": {name, content}}).OK().Str("uri")
}

// target is a stream an outsider may not see, with a message and an
// upload linked only there; spareStreamID and spareMsg are for the
// administrator's insider probes, which delete them.
type target struct {
	stream, word            string
	streamID, spareStreamID int64
	msg, spareMsg           int64
	upload                  string
}

// aboutRandom is w with random as the target.
func (w world) aboutRandom() world {
	w.target = w.onRandom
	return w
}

// missing is w with the things scoped and own probes ask about replaced by
// twins that do not exist.
func (w world) missing() world {
	w.target = target{stream: "nowhere", word: w.word, streamID: 999, spareStreamID: 998, msg: 999999, spareMsg: 999998, upload: "/user_uploads/1/00/nothingatall/plan.txt"}
	w.ownUpload = "/user_uploads/1/00/nothingelse/diary.txt"
	w.tusUpload = "/api/v1/tus/nothingatall"
	w.spareAttachment = 999999
	w.scheduled, w.spareScheduled = 999999, 999998
	w.spareSnippet = 999999
	w.queue, w.spareQueue = "nonsense", "absent-queue"
	w.storageKey = "no-such-key"
	return w
}

// forAdmin is w with the owner probes' things swapped for second ones, so
// the administrator's turn acts on what the owner's turn left alone.
func (w world) forAdmin() world {
	w.botID, w.emoji, w.topicMsg, w.inviteID = w.botID2, w.emoji2, w.topicMsg2, w.inviteID2
	return w
}

// hides are what listings must not show an outsider of the target: its
// name anywhere, its message's words, its ID as a stream_id.
func (w world) hides() []string {
	return []string{w.stream, w.word + " plan", fmt.Sprintf(`"stream_id":%d,`, w.streamID), fmt.Sprintf(`"stream_id":%d}`, w.streamID)}
}

// normalize blanks out the names and IDs that tell a thing from its twin:
// they are the only difference allowed between the two answers.
func normalize(msg string, worlds ...world) string {
	for _, w := range worlds {
		for _, s := range []string{w.stream, w.queue, w.spareQueue, w.storageKey} {
			msg = strings.ReplaceAll(msg, s, "NAME")
		}
		for _, n := range []int64{w.streamID, w.spareStreamID, w.msg, w.spareMsg} {
			msg = regexp.MustCompile(fmt.Sprintf(`\b%d\b`, n)).ReplaceAllString(msg, "N")
		}
	}
	return msg
}

// fakeWorld has a distinct value everywhere, for checking probes' paths
// without a server.
func fakeWorld() world {
	w := world{target: target{stream: "secret", upload: "/user_uploads/1/ab/token/plan.txt"}, ownUpload: "/user_uploads/1/cd/token/diary.txt",
		emoji: "e", emoji2: "e2", queue: "q", webhookKey: "k", botEmail: "b@x"}
	w.streamID, w.spareStreamID, w.msg, w.spareMsg, w.randomID, w.doomedID = 11, 12, 13, 14, 15, 16
	w.generalMsg, w.editMsg, w.topicMsg, w.topicMsg2, w.moveMsg, w.adminID, w.bobID, w.carolID = 17, 18, 19, 20, 29, 21, 22, 23
	w.filterID, w.groupID, w.spareGroupID, w.botID, w.botID2 = 24, 25, 26, 27, 28
	w.inviteID, w.inviteID2, w.inviteLinkID = 30, 31, 32
	w.profileFieldID = 33
	w.playgroundID = 34
	return w
}

// client is the world's client for an email.
func (w world) client(email string) *apitest.Client {
	for _, c := range []*apitest.Client{w.admin, w.alice, w.bob, w.guest, w.echo, w.aliceBot, w.aliceBot2} {
		if c.Email() == email {
			return c
		}
	}
	panic("no client for " + email)
}
