package api_test

import (
	"fmt"
	"maps"

	"lanchat/backend/apitest"
)

// permissions is the permission matrix: one rule per route of the route
// table ("METHOD path"), saying who may use it and how to probe that.
// TestPermissionTableCoversEveryRoute keeps it and the routes in step.
func permissions() map[string]rule {
	table := map[string]rule{
		"GET /api/v1/server_settings": {public, fixed(probe{})},
		"POST /api/v1/fetch_api_key": {public, func(w world) []probe {
			return []probe{
				{form: apitest.Form{"username": "alice@example.com", "password": "lanchat-dev"}},
				// Bots have no password, so none of their keys signs them in.
				{name: "a bot cannot sign in", form: apitest.Form{"username": "echo-bot@example.com", "password": w.echoKey}, status: 401, code: "AUTHENTICATION_FAILED"},
			}
		}},
		"POST /api/v1/dev_fetch_api_key": {public, fixed(probe{form: apitest.Form{"username": "bob@example.com"}})},
		"POST /accounts/login": {public, func(w world) []probe {
			return []probe{
				{form: apitest.Form{"username": "alice@example.com", "password": "lanchat-dev"}},
				{name: "a bot gets no browser session", form: apitest.Form{"username": "echo-bot@example.com", "password": w.echoKey}, status: 401, code: "AUTHENTICATION_FAILED"},
			}
		}},
		"POST /accounts/logout": {public, fixed(probe{})},
		// Answers about the caller's own cookie; a stranger has none, and is told so.
		"GET /accounts/session": {public, fixed(probe{})},
		"GET /accounts/setup":   {public, fixed(probe{})},
		// Only the key in an invitation's link opens it.
		"GET /accounts/invite":  {public, fixed(probe{form: apitest.Form{"key": "guess"}, status: 400, code: "BAD_REQUEST"})},
		"POST /accounts/invite": {public, fixed(probe{form: apitest.Form{"key": "guess", "full_name": "Eve", "email": "eve@example.com", "password": "password1"}, status: 400, code: "BAD_REQUEST"})},
		// Setup is done: only the setup token (never printed here) could redo it.
		"POST /accounts/setup": {public, fixed(probe{form: apitest.Form{"token": "guess", "realm_name": "Mine", "full_name": "Eve", "email": "eve@example.com", "password": "password1"}, status: 400, code: "BAD_REQUEST"})},

		"POST /api/v1/register": {scoped, func(w world) []probe {
			return []probe{
				{name: "initial state", hides: w.hides()},
			}
		}},
		"GET /api/v1/events":        {own, func(w world) []probe { return []probe{{form: apitest.Form{"queue_id": w.queue, "dont_block": true}}} }},
		"DELETE /api/v1/events":     {own, func(w world) []probe { return []probe{{form: apitest.Form{"queue_id": w.spareQueue}}} }},
		"GET /api/v1/events/socket": {own, func(w world) []probe { return []probe{{form: apitest.Form{"queue_id": w.queue}}} }},
		"POST /api/v1/typing": {scoped, func(w world) []probe {
			return []probe{{form: apitest.Form{"op": "start", "type": "stream", "stream_id": w.streamID, "topic": "plans"}}}
		}},

		"GET /api/v1/streams": {scoped, func(w world) []probe {
			return []probe{{hides: w.hides()}, {name: "list all streams", form: apitest.Form{"include_all": true}, hides: w.hides()}}
		}},
		"GET /api/v1/get_stream_id": {scoped, func(w world) []probe { return []probe{{form: apitest.Form{"stream": w.stream}}} }},
		"PATCH /api/v1/streams/{stream_id}": {admin, func(w world) []probe {
			return []probe{
				{name: "edit stream", path: id("/api/v1/streams/%d", w.randomID), form: apitest.Form{"description": "mine"}},
				{who: scoped, insider: "admin@example.com", path: id("/api/v1/streams/%d", w.streamID), form: apitest.Form{"description": "still hidden"}},
			}
		}},
		"POST /api/v1/streams/{stream_id}/delete_topic": {admin, func(w world) []probe {
			return []probe{
				{name: "delete a topic", path: id("/api/v1/streams/%d/delete_topic", w.randomID), form: apitest.Form{"topic_name": "nothing here"}},
				{who: scoped, insider: "admin@example.com", path: id("/api/v1/streams/%d/delete_topic", w.streamID), form: apitest.Form{"topic_name": "nothing here"}},
			}
		}},
		"DELETE /api/v1/streams/{stream_id}": {admin, func(w world) []probe {
			return []probe{
				{name: "delete stream", path: id("/api/v1/streams/%d", w.doomedID)},
				{who: scoped, insider: "admin@example.com", path: id("/api/v1/streams/%d", w.spareStreamID)},
			}
		}},
		"POST /api/v1/default_streams": {admin, func(w world) []probe {
			return []probe{
				{name: "make a default stream", form: apitest.Form{"stream_id": w.randomID}},
				{who: scoped, insider: "admin@example.com", form: apitest.Form{"stream_id": w.streamID}},
			}
		}},
		"DELETE /api/v1/default_streams": {admin, func(w world) []probe {
			return []probe{
				{name: "stop a default stream", form: apitest.Form{"stream_id": w.randomID}},
				{who: scoped, insider: "admin@example.com", form: apitest.Form{"stream_id": w.streamID}},
			}
		}},
		"GET /api/v1/streams/{stream_id}/members":       {scoped, func(w world) []probe { return []probe{{path: id("/api/v1/streams/%d/members", w.streamID)}} }},
		"GET /api/v1/streams/{stream_id}/email_address": {scoped, func(w world) []probe { return []probe{{path: id("/api/v1/streams/%d/email_address", w.streamID)}} }},
		"GET /api/v1/streams/{stream_id}":               {scoped, func(w world) []probe { return []probe{{path: id("/api/v1/streams/%d", w.streamID)}} }},
		"GET /api/v1/users/{user}/{first}/{second}": {scoped, func(w world) []probe {
			return []probe{{name: "topics", path: id("/api/v1/users/me/%d/topics", w.streamID)},
				{name: "subscription status", path: fmt.Sprintf("/api/v1/users/%d/subscriptions/%d", w.bobID, w.streamID)}}
		}},
		"POST /api/v1/users/me/subscriptions/properties": {scoped, func(w world) []probe {
			return []probe{{form: apitest.Form{"subscription_data": []map[string]any{{"stream_id": w.streamID, "property": "color", "value": "#aabbcc"}}}}}
		}},
		"PATCH /api/v1/users/me/subscriptions/muted_topics": {scoped, func(w world) []probe {
			return []probe{{form: apitest.Form{"stream": w.stream, "topic": "plans", "op": "add"}}}
		}},

		"GET /api/v1/messages": {scoped, func(w world) []probe {
			return []probe{
				{name: "narrow by stream", form: apitest.Form{"anchor": "newest", "num_before": 5, "num_after": 0, "narrow": `[["stream","` + w.stream + `"]]`}},
				{name: "search", form: narrowed(`[["search","` + w.word + `"]]`), hides: w.hides()},
				{name: "everything", form: narrowed(`[]`), hides: w.hides()},
			}
		}},
		"POST /api/v1/messages":               {scoped, func(w world) []probe { return []probe{{form: streamMsg(w.stream, "plans", "let me in")}} }},
		"GET /api/v1/messages/{message_id}":   {scoped, func(w world) []probe { return []probe{{path: msgPath(w.msg, "")}} }},
		"PATCH /api/v1/messages/{message_id}": {scoped, editRules},
		"DELETE /api/v1/messages/{message_id}": {admin, func(w world) []probe {
			return []probe{
				{name: "delete message", path: msgPath(w.generalMsg, "")},
				{who: scoped, insider: "admin@example.com", path: msgPath(w.spareMsg, "")},
			}
		}},
		"POST /api/v1/message_edit_typing": {scoped, func(w world) []probe {
			return []probe{{form: apitest.Form{"message_id": w.msg, "op": "start"}}}
		}},
		"POST /api/v1/messages/{message_id}/typing": {scoped, func(w world) []probe {
			return []probe{{path: msgPath(w.msg, "/typing"), form: apitest.Form{"op": "start"}}}
		}},
		"GET /api/v1/messages/{message_id}/history": {scoped, func(w world) []probe { return []probe{{path: msgPath(w.msg, "/history")}} }},
		"GET /api/v1/messages/{message_id}/read_receipts": {scoped, func(w world) []probe {
			return []probe{{path: msgPath(w.msg, "/read_receipts")}}
		}},
		"POST /api/v1/messages/{message_id}/reactions": {scoped, func(w world) []probe {
			return []probe{{path: msgPath(w.msg, "/reactions"), form: apitest.Form{"emoji_name": "+1"}}}
		}},
		"DELETE /api/v1/messages/{message_id}/reactions": {scoped, func(w world) []probe {
			return []probe{{path: msgPath(w.msg, "/reactions"), form: apitest.Form{"emoji_name": "+1"}}}
		}},
		// The message's sender attaches the first submessage; everyone who
		// can see the message may add more.
		"POST /api/v1/submessage": {scoped, func(w world) []probe {
			return []probe{{form: apitest.Form{"message_id": w.msg, "msg_type": "widget", "content": `{"type":"vote","key":"1,1","vote":1}`}}}
		}},
		"POST /api/v1/messages/flags": {scoped, func(w world) []probe {
			return []probe{{form: apitest.Form{"messages": []int64{w.msg}, "op": "add", "flag": "starred"}}}
		}},
		"GET /api/v1/messages/matches_narrow": {scoped, func(w world) []probe {
			return []probe{{form: apitest.Form{"msg_ids": []int64{w.msg}, "narrow": `[["search","` + w.word + `"]]`}, hides: []string{w.word}}}
		}},
		"POST /api/v1/user_topics": {scoped, func(w world) []probe {
			return []probe{{form: apitest.Form{"stream_id": w.streamID, "topic": "t", "visibility_policy": 3}}}
		}},
		"POST /api/v1/messages/flags/narrow": {scoped, func(w world) []probe {
			return []probe{{form: apitest.Form{"narrow": `[["channel","` + w.stream + `"]]`, "anchor": "newest",
				"num_before": 10, "num_after": 0, "op": "add", "flag": "starred"}}}
		}},
		// A stream link renders only for a stream the author can see.
		"POST /api/v1/messages/render": {scoped, func(w world) []probe {
			return []probe{{form: apitest.Form{"content": "#**" + w.stream + "**"}, hides: []string{"data-stream-id"}}}
		}},

		"PATCH /api/v1/realm":               {admin, fixed(probe{name: "rename organization", form: apitest.Form{"name": "Taken Over"}})},
		"GET /api/v1/export/realm/consents": {admin, fixed(probe{})},
		"POST /api/v1/realm/import":         {owners, fixed(probe{name: "import over the organization", form: apitest.Form{"format": "slack"}})},
		"GET /api/v1/realm/import":          {owners, fixed(probe{name: "watch an import"})},
		"GET /api/v1/realm/linkifiers":      {anyone, fixed(probe{})},
		"GET /api/v1/realm/filters":         {anyone, fixed(probe{})},
		// Its route comes before POST /realm/filters: w.filterID is then the only linkifier.
		"PATCH /api/v1/realm/linkifiers": {admin, func(w world) []probe {
			return []probe{{name: "reorder linkifiers", form: apitest.Form{"ordered_linkifier_ids": []int64{w.filterID}}}}
		}},
		"POST /api/v1/realm/filters": {admin, fixed(probe{name: "add linkifier",
			form: apitest.Form{"pattern": `T(?P<n>[0-9]+)`, "url_template": "https://t.lan/{n}"}})},
		"PATCH /api/v1/realm/filters/{filter_id}": {admin, func(w world) []probe {
			return []probe{{name: "edit linkifier", path: id("/api/v1/realm/filters/%d", w.filterID),
				form: apitest.Form{"pattern": `#(?P<id>[0-9]+)`, "url_template": "https://y.lan/{id}"}}}
		}},
		"DELETE /api/v1/realm/filters/{filter_id}": {admin, func(w world) []probe {
			return []probe{{name: "delete linkifier", path: id("/api/v1/realm/filters/%d", w.filterID)}}
		}},
		"POST /api/v1/realm/playgrounds": {admin, fixed(probe{name: "add code playground",
			form: apitest.Form{"name": "Rust", "pygments_language": "Rust", "url_template": "https://rust.lan/?c={code}"}})},
		"DELETE /api/v1/realm/playgrounds/{playground_id}": {admin, func(w world) []probe {
			return []probe{{name: "remove code playground", path: id("/api/v1/realm/playgrounds/%d", w.playgroundID)}}
		}},
		"GET /api/v1/realm/profile_fields": {anyone, fixed(probe{})},
		// Its route comes before POST /realm/profile_fields: w.profileFieldID is then the only field.
		"PATCH /api/v1/realm/profile_fields": {admin, func(w world) []probe {
			return []probe{{name: "reorder profile fields", form: apitest.Form{"order": []int64{w.profileFieldID}}}}
		}},
		"POST /api/v1/realm/profile_fields": {admin, fixed(probe{name: "add profile field", form: apitest.Form{"name": "Desk", "field_type": 1}})},
		"PATCH /api/v1/realm/profile_fields/{field_id}": {admin, func(w world) []probe {
			return []probe{{name: "edit profile field", path: id("/api/v1/realm/profile_fields/%d", w.profileFieldID), form: apitest.Form{"hint": "Floor and room"}}}
		}},
		"DELETE /api/v1/realm/profile_fields/{field_id}": {admin, func(w world) []probe {
			return []probe{{name: "delete profile field", path: id("/api/v1/realm/profile_fields/%d", w.profileFieldID)}}
		}},
		"PATCH /api/v1/users/me/profile_data":  {humans, fixed(probe{name: "set one's profile data", form: apitest.Form{"data": "[]"}})},
		"DELETE /api/v1/users/me/profile_data": {humans, fixed(probe{name: "clear one's profile data", form: apitest.Form{"data": "[]"}})},

		"POST /api/v1/mark_all_as_read": {anyone, fixed(probe{})},
		"POST /api/v1/mark_stream_as_read": {scoped, func(w world) []probe {
			return []probe{{form: apitest.Form{"stream_id": w.streamID}}}
		}},
		"POST /api/v1/mark_topic_as_read": {scoped, func(w world) []probe {
			return []probe{{form: apitest.Form{"stream_id": w.streamID, "topic_name": "plans"}}}
		}},
	}
	for _, path := range []string{"/api/v1/users/me/subscriptions", "/api/v1/users/me/subcriptions"} {
		maps.Copy(table, subscriptionRules(path))
	}
	maps.Copy(table, peopleRules())
	return table
}

// editRules: content is the sender's alone; a topic, the sender's or an
// administrator's; another stream, an administrator's.
func editRules(w world) []probe {
	return []probe{
		{path: msgPath(w.msg, ""), form: apitest.Form{"content": "x"}},
		{who: author, name: "edit content", path: msgPath(w.editMsg, ""), form: apitest.Form{"content": "edited"}},
		{who: owner, name: "rename topic", path: msgPath(w.topicMsg, ""), form: apitest.Form{"topic": "renamed"}},
		{who: admin, name: "move to another stream", path: msgPath(w.moveMsg, ""), form: apitest.Form{"stream_id": w.randomID}},
	}
}

// subscriptionRules are the subscription routes, at their path and at the
// spec's misspelled alias.
func subscriptionRules(path string) map[string]rule {
	return map[string]rule{
		"GET " + path: {scoped, func(w world) []probe {
			return []probe{{path: path, form: apitest.Form{"include_subscribers": true}, hides: w.hides()}}
		}},
		"POST " + path: {scoped, func(w world) []probe {
			return []probe{
				{path: path, name: "join", form: apitest.Form{"subscriptions": []map[string]string{{"name": w.stream}}}, refused: true},
				{who: members, path: path, name: "create a stream", form: apitest.Form{"subscriptions": []map[string]string{{"name": "fresh"}}}},
				{who: members, path: path, name: "subscribe someone", form: apitest.Form{"subscriptions": []map[string]string{{"name": "general"}}, "principals": []string{"admin@example.com"}}},
			}
		}},
		"DELETE " + path: {scoped, func(w world) []probe {
			return []probe{
				{path: path, form: apitest.Form{"subscriptions": []string{w.stream}}},
				{who: admin, path: path, name: "unsubscribe someone", form: apitest.Form{"subscriptions": []string{"general"}, "principals": []string{"bob@example.com"}}},
			}
		}},
	}
}

// fixed is a rule's probes that do not depend on the world.
func fixed(ps ...probe) func(world) []probe {
	return func(world) []probe { return append([]probe(nil), ps...) }
}

func id(format string, args ...any) string { return fmt.Sprintf(format, args...) }
