package api_test

import (
	"net/url"
	"time"

	"lanchat/backend/apitest"
)

// peopleRules are the rules of the people, groups, presence, bots, webhook,
// emoji and upload routes (the second half of routes.go).
func peopleRules() map[string]rule {
	return map[string]rule{
		"GET /api/v1/users":           {anyone, fixed(probe{})},
		"GET /api/v1/users/me":        {anyone, fixed(probe{})},
		"GET /api/v1/users/{user_id}": {anyone, func(w world) []probe { return []probe{{path: id("/api/v1/users/%d", w.bobID)}} }},
		"POST /api/v1/users": {admin, fixed(probe{name: "create user",
			form: apitest.Form{"email": "new@example.com", "password": "password1", "full_name": "New Person"}})},
		"PATCH /api/v1/users/{user_id}": {admin, func(w world) []probe {
			return []probe{{name: "change role", path: id("/api/v1/users/%d", w.bobID), form: apitest.Form{"role": 200}}}
		}},
		"DELETE /api/v1/users/{user_id}": {admin, func(w world) []probe {
			return []probe{{name: "deactivate user", path: id("/api/v1/users/%d", w.bobID)}}
		}},
		"POST /api/v1/users/{user_id}/reactivate": {admin, func(w world) []probe {
			return []probe{{name: "reactivate user", path: id("/api/v1/users/%d/reactivate", w.carolID)}}
		}},
		"POST /api/v1/users/{user_id}/password": {admin, func(w world) []probe {
			return []probe{{name: "issue a password", path: id("/api/v1/users/%d/password", w.carolID)}}
		}},
		// Zulip refuses bots here altogether: a bot's name is its owner's
		// to change, and it has no password.
		"GET /api/v1/invites":  {members, fixed(probe{})},
		"POST /api/v1/invites": {members, fixed(probe{name: "invite by email", form: apitest.Form{"invitee_emails": "fay@example.com", "stream_ids": []int64{}}})},
		// Reusable links are for administrators (Zulip's default create_multiuse_invite_group).
		"POST /api/v1/invites/multiuse": {admin, fixed(probe{name: "create an invitation link"})},
		"DELETE /api/v1/invites/{invite_id}": {owner, func(w world) []probe {
			return []probe{{name: "revoke an invitation", path: id("/api/v1/invites/%d", w.inviteID)}}
		}},
		"DELETE /api/v1/invites/multiuse/{invite_id}": {admin, func(w world) []probe {
			return []probe{{name: "revoke an invitation link", path: id("/api/v1/invites/multiuse/%d", w.inviteLinkID)}}
		}},
		// The caller's own devices; each DELETE follows its POST in the route table.
		"POST /api/v1/users/me/apns_device_token":    {humans, fixed(probe{name: "register an iPhone", form: apitest.Form{"token": "c0ffee00", "appid": "org.zulip.Zulip"}})},
		"DELETE /api/v1/users/me/apns_device_token":  {humans, fixed(probe{name: "forget an iPhone", form: apitest.Form{"token": "c0ffee00"}})},
		"POST /api/v1/users/me/android_gcm_reg_id":   {humans, fixed(probe{name: "register an Android phone", form: apitest.Form{"token": "android-token"}})},
		"DELETE /api/v1/users/me/android_gcm_reg_id": {humans, fixed(probe{name: "forget an Android phone", form: apitest.Form{"token": "android-token"}})},
		"POST /api/v1/mobile_push/test_notification": {humans, fixed(probe{name: "test the caller's devices"})},
		// The caller's own phone topic; bots have no phone.
		"GET /api/v1/users/me/ntfy":              {humans, fixed(probe{name: "read one's phone topic"})},
		"POST /api/v1/users/me/ntfy/regenerate":  {humans, fixed(probe{name: "replace one's phone topic"})},
		"POST /api/v1/users/me/onboarding_steps": {humans, fixed(probe{name: "dismiss a notice", form: apitest.Form{"onboarding_step": "intro_inbox_view_modal"}})},
		"PATCH /api/v1/settings": {humans, fixed(
			probe{name: "rename oneself", form: apitest.Form{"full_name": "Someone Renamed"}},
			probe{name: "set a password", form: apitest.Form{"old_password": "lanchat-dev", "new_password": "lanchat-dev"}},
		)},
		// Zulip's aliases of PATCH /settings (level 80).
		"PATCH /api/v1/settings/display":       {humans, fixed(probe{name: "change a display setting", form: apitest.Form{"left_side_userlist": true}})},
		"PATCH /api/v1/settings/notifications": {humans, fixed(probe{name: "change a notification setting", form: apitest.Form{"enable_sounds": false}})},
		// Zulip refuses bots here too: their owner regenerates their key.
		"POST /api/v1/users/me/api_key/regenerate": {humans, fixed(probe{name: "regenerate one's API key"})},
		// One's own list (carol, deactivated, is nobody's self); each DELETE
		// follows its POST in the route table.
		"POST /api/v1/users/me/muted_users/{muted_user_id}":   {anyone, func(w world) []probe { return []probe{{path: id("/api/v1/users/me/muted_users/%d", w.carolID)}} }},
		"DELETE /api/v1/users/me/muted_users/{muted_user_id}": {anyone, func(w world) []probe { return []probe{{path: id("/api/v1/users/me/muted_users/%d", w.carolID)}} }},
		"POST /api/v1/users/me/status":                        {anyone, fixed(probe{form: apitest.Form{"status_text": "in a meeting"}})},
		"GET /api/v1/users/{user_id}/status":                  {anyone, func(w world) []probe { return []probe{{path: id("/api/v1/users/%d/status", w.bobID)}} }},
		"GET /avatar/{user}":                                  {anyone, fixed(probe{path: "/avatar/alice@example.com"})},
		"GET /avatar/{user}/medium":                           {anyone, fixed(probe{path: "/avatar/alice@example.com/medium"})},
		"POST /api/v1/users/me/avatar": {anyone, func(w world) []probe {
			return []probe{{files: map[string][2]string{"file": {"me.png", w.png}}}}
		}},
		"DELETE /api/v1/users/me/avatar":      {anyone, fixed(probe{})},
		"GET /api/v1/users/me/alert_words":    {own, func(w world) []probe { return []probe{{hides: []string{w.alertWord}}} }},
		"POST /api/v1/users/me/alert_words":   {anyone, fixed(probe{form: apitest.Form{"alert_words": []string{"probe"}}})},
		"DELETE /api/v1/users/me/alert_words": {anyone, fixed(probe{form: apitest.Form{"alert_words": []string{"probe"}}})},

		"GET /api/v1/user_groups":         {anyone, fixed(probe{})},
		"POST /api/v1/user_groups/create": {members, fixed(probe{form: apitest.Form{"name": "probers", "members": []int64{}}})},
		"PATCH /api/v1/user_groups/{group_id}": {members, func(w world) []probe {
			return []probe{{path: id("/api/v1/user_groups/%d", w.groupID), form: apitest.Form{"description": "probed"}}}
		}},
		"POST /api/v1/user_groups/{group_id}/deactivate": {members, func(w world) []probe {
			return []probe{{path: id("/api/v1/user_groups/%d/deactivate", w.spareGroupID)}}
		}},
		"GET /api/v1/user_groups/{group_id}/members": {anyone, func(w world) []probe {
			return []probe{{path: id("/api/v1/user_groups/%d/members", w.groupID)}}
		}},
		"POST /api/v1/user_groups/{group_id}/members": {members, func(w world) []probe {
			return []probe{{path: id("/api/v1/user_groups/%d/members", w.groupID), form: apitest.Form{"add": []int64{w.adminID}}}}
		}},
		"GET /api/v1/user_groups/{group_id}/members/{user_id}": {anyone, func(w world) []probe {
			return []probe{{path: id("/api/v1/user_groups/%d/members/", w.groupID) + itoa(w.adminID)}}
		}},
		"GET /api/v1/user_groups/{group_id}/subgroups": {anyone, func(w world) []probe {
			return []probe{{path: id("/api/v1/user_groups/%d/subgroups", w.groupID)}}
		}},
		"POST /api/v1/user_groups/{group_id}/subgroups": {members, func(w world) []probe {
			return []probe{{path: id("/api/v1/user_groups/%d/subgroups", w.groupID), form: apitest.Form{"add": []int64{w.subgroupID}}}}
		}},

		"POST /api/v1/users/me/presence":    {humans, fixed(probe{form: apitest.Form{"status": "active"}})},
		"GET /api/v1/users/{user}/presence": {anyone, fixed(probe{path: "/api/v1/users/alice@example.com/presence"})},
		"GET /api/v1/realm/presence":        {anyone, fixed(probe{})},
		"GET /api/v1/bots":                  {own, func(w world) []probe { return []probe{{hides: []string{w.botEmail}}} }},
		"POST /api/v1/bots": {members, fixed(
			probe{form: apitest.Form{"full_name": "Probe Bot", "short_name": "probe"}},
			probe{who: humans, name: "a bot cannot make bots", form: apitest.Form{"full_name": "Probe Bot Two", "short_name": "probe2"}},
		)},
		"PATCH /api/v1/bots/{bot_id}": {owner, func(w world) []probe {
			return []probe{{path: id("/api/v1/bots/%d", w.botID), form: apitest.Form{"full_name": "Renamed Bot"}}}
		}},
		"DELETE /api/v1/bots/{bot_id}": {owner, func(w world) []probe { return []probe{{path: id("/api/v1/bots/%d", w.botID)}} }},
		"POST /api/v1/bots/{bot_id}/api_key/regenerate": {owner, func(w world) []probe {
			return []probe{{path: id("/api/v1/bots/%d/api_key/regenerate", w.botID)}}
		}},
		"GET /api/v1/bot_storage":    {own, func(w world) []probe { return []probe{{form: apitest.Form{"keys": []string{w.storageKey}}}} }},
		"PUT /api/v1/bot_storage":    {anyone, fixed(probe{form: apitest.Form{"storage": map[string]string{"k": "v"}}})},
		"DELETE /api/v1/bot_storage": {own, func(w world) []probe { return []probe{{form: apitest.Form{"keys": []string{w.storageKey}}}} }},

		"POST /api/v1/external/{integration}": {webhook, func(w world) []probe {
			return []probe{{path: "/api/v1/external/helloworld?stream=general&api_key=" + url.QueryEscape(w.webhookKey),
				body: `{"featured_title": "Lanchat", "featured_url": "https://lanchat.example/"}`}}
		}},

		"GET /api/v1/realm/emoji": {anyone, fixed(probe{})},
		"POST /api/v1/realm/emoji/{emoji_name}": {members, func(w world) []probe {
			return []probe{
				{path: "/api/v1/realm/emoji/probe_one", files: map[string][2]string{"file": {"e.png", w.png}}},
				{who: humans, name: "a bot cannot add emoji", path: "/api/v1/realm/emoji/probe_two", files: map[string][2]string{"file": {"e.png", w.png}}},
			}
		}},
		"DELETE /api/v1/realm/emoji/{emoji_name}": {owner, func(w world) []probe { return []probe{{path: "/api/v1/realm/emoji/" + w.emoji}} }},
		// Public as in Zulip (TestCustomEmoji fetches a real one without credentials).
		"GET /user_avatars/1/emoji/images/{file}": {public, fixed(probe{path: "/user_avatars/1/emoji/images/none.png", status: 404, code: "BAD_REQUEST"})},

		"POST /api/v1/tus":     {anyone, fixed(probe{header: map[string]string{"Upload-Length": "10"}, status: 201})},
		"GET /api/v1/tus/{id}": {own, func(w world) []probe { return []probe{{path: w.tusUpload}} }},
		"PATCH /api/v1/tus/{id}": {own, func(w world) []probe {
			return []probe{{path: w.tusUpload, header: map[string]string{"Content-Type": "application/offset+octet-stream", "Upload-Offset": "0"}}}
		}},
		"POST /api/v1/user_uploads": {anyone, func(w world) []probe {
			return []probe{{files: map[string][2]string{"f": {"note.txt", "a note"}}}}
		}},
		"GET /user_uploads/{realm}/{dir}/{token}/{name}": {scoped, func(w world) []probe {
			return []probe{{path: w.upload}, {who: own, path: w.ownUpload}}
		}},
		"GET /api/v1/user_uploads/{realm}/{dir}/{token}/{name}": {scoped, func(w world) []probe {
			return []probe{{path: "/api/v1" + w.upload}, {who: own, path: "/api/v1" + w.ownUpload}}
		}},
		// Only a token the server signed opens a file.
		"GET /user_uploads/temporary/{token}/{name}": {public, fixed(probe{path: "/user_uploads/temporary/forged.token/x.txt", status: 404, code: "BAD_REQUEST"})},
		"GET /api/v1/attachments":                    {own, fixed(probe{hides: []string{"plan.txt", "diary.txt"}})},
		"DELETE /api/v1/attachments/{attachment_id}": {own, func(w world) []probe {
			return []probe{{path: id("/api/v1/attachments/%d", w.spareAttachment)}}
		}},
		"GET /api/v1/scheduled_messages": {own, fixed(probe{hides: []string{"scheduled plan"}})},
		"GET /api/v1/saved_snippets":     {own, fixed(probe{hides: []string{"snippet plan"}})},
		"POST /api/v1/saved_snippets":    {anyone, fixed(probe{form: apitest.Form{"title": "probe", "content": "probed"}})},
		"PATCH /api/v1/saved_snippets/{saved_snippet_id}": {own, func(w world) []probe {
			return []probe{{path: id("/api/v1/saved_snippets/%d", w.spareSnippet), form: apitest.Form{"title": "edited"}}}
		}},
		"DELETE /api/v1/saved_snippets/{saved_snippet_id}": {own, func(w world) []probe {
			return []probe{{path: id("/api/v1/saved_snippets/%d", w.spareSnippet)}}
		}},
		// Scheduling into a stream one cannot see is refused as for a missing stream.
		"POST /api/v1/scheduled_messages": {scoped, func(w world) []probe {
			return []probe{{form: apitest.Form{"type": "stream", "to": w.streamID, "topic": "plans", "content": "later",
				"scheduled_delivery_timestamp": time.Now().Add(24 * time.Hour).Unix()}}}
		}},
		"PATCH /api/v1/scheduled_messages/{scheduled_message_id}": {own, func(w world) []probe {
			return []probe{{path: id("/api/v1/scheduled_messages/%d", w.scheduled), form: apitest.Form{"content": "changed plan"}}}
		}},
		"DELETE /api/v1/scheduled_messages/{scheduled_message_id}": {own, func(w world) []probe {
			return []probe{{path: id("/api/v1/scheduled_messages/%d", w.spareScheduled)}}
		}},
	}
}
