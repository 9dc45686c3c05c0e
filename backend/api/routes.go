package api

import "slices"

// routes is the whole HTTP surface in one table. A new endpoint is one row
// here and one thin handler that calls one domain action.
func (a *API) routes() []route {
	return slices.Concat(a.coreRoutes(), a.peopleRoutes())
}

// coreRoutes: log-in, streams, messages and events.
func (a *API) coreRoutes() []route {
	return []route{
		{method: "GET", path: "/api/v1/server_settings", auth: authNone, handle: serverSettings},
		{method: "POST", path: "/api/v1/fetch_api_key", auth: authNone, login: true, handle: fetchAPIKey},
		{method: "POST", path: "/api/v1/dev_fetch_api_key", auth: authNone, login: true, handle: devFetchAPIKey},
		{method: "POST", path: "/accounts/login", auth: authNone, login: true, browserForm: true, handle: signIn},
		{method: "POST", path: "/accounts/logout", auth: authNone, browserForm: true, handle: signOut},
		{method: "GET", path: "/accounts/session", auth: authNone, handle: currentSession},
		{method: "GET", path: "/accounts/setup", auth: authNone, handle: setupState},
		{method: "POST", path: "/accounts/setup", auth: authNone, login: true, browserForm: true, handle: setUpOrganization},

		{method: "POST", path: "/api/v1/register", auth: authUser, handle: register},
		{method: "GET", path: "/api/v1/events", auth: authUser, longLived: true, handle: getEvents},
		{method: "DELETE", path: "/api/v1/events", auth: authUser, handle: deleteQueue},
		{method: "GET", path: "/api/v1/events/socket", auth: authUser, longLived: true, handle: eventSocket},
		{method: "POST", path: "/api/v1/typing", auth: authUser, handle: setTyping},

		{method: "GET", path: "/api/v1/streams", auth: authUser, handle: listStreams},
		{method: "GET", path: "/api/v1/get_stream_id", auth: authUser, handle: getStreamID},
		{method: "PATCH", path: "/api/v1/streams/{stream_id}", auth: authUser, handle: updateStream},
		{method: "DELETE", path: "/api/v1/streams/{stream_id}", auth: authUser, handle: deleteStream},
		{method: "GET", path: "/api/v1/streams/{stream_id}/members", auth: authUser, handle: streamMembers},
		{method: "GET", path: "/api/v1/streams/{stream_id}/email_address", auth: authUser, handle: streamEmailAddress},
		{method: "GET", path: "/api/v1/users/me/{stream_id}/topics", auth: authUser, handle: streamTopics},
		{method: "GET", path: "/api/v1/users/me/subscriptions", auth: authUser, handle: listSubscriptions},
		{method: "POST", path: "/api/v1/users/me/subscriptions", auth: authUser, handle: subscribe},
		{method: "DELETE", path: "/api/v1/users/me/subscriptions", auth: authUser, handle: unsubscribe},
		// The spec's misspelled heading path, accepted as an alias.
		{method: "GET", path: "/api/v1/users/me/subcriptions", auth: authUser, handle: listSubscriptions},
		{method: "POST", path: "/api/v1/users/me/subcriptions", auth: authUser, handle: subscribe},
		{method: "DELETE", path: "/api/v1/users/me/subcriptions", auth: authUser, handle: unsubscribe},
		{method: "POST", path: "/api/v1/users/me/subscriptions/properties", auth: authUser, handle: updateSubscriptionProperties},
		{method: "PATCH", path: "/api/v1/users/me/subscriptions/muted_topics", auth: authUser, handle: muteTopic},
		{method: "POST", path: "/api/v1/user_topics", auth: authUser, handle: setUserTopic},

		{method: "GET", path: "/api/v1/messages", auth: authUser, handle: getMessages},
		{method: "POST", path: "/api/v1/messages", auth: authUser, webhookBots: true, handle: sendMessage},
		{method: "GET", path: "/api/v1/messages/matches_narrow", auth: authUser, handle: matchesNarrow},
		{method: "GET", path: "/api/v1/messages/{message_id}", auth: authUser, handle: getMessage},
		{method: "PATCH", path: "/api/v1/messages/{message_id}", auth: authUser, handle: editMessage},
		{method: "DELETE", path: "/api/v1/messages/{message_id}", auth: authUser, handle: deleteMessage},
		{method: "GET", path: "/api/v1/messages/{message_id}/history", auth: authUser, handle: messageHistory},
		{method: "POST", path: "/api/v1/messages/{message_id}/reactions", auth: authUser, handle: addReaction},
		{method: "DELETE", path: "/api/v1/messages/{message_id}/reactions", auth: authUser, handle: removeReaction},
		{method: "POST", path: "/api/v1/messages/flags", auth: authUser, handle: updateFlags},
		{method: "POST", path: "/api/v1/messages/flags/narrow", auth: authUser, handle: updateFlagsForNarrow},
		{method: "POST", path: "/api/v1/messages/render", auth: authUser, handle: renderPreview},

		{method: "PATCH", path: "/api/v1/realm", auth: authUser, handle: updateRealm},
		{method: "GET", path: "/api/v1/realm/linkifiers", auth: authUser, handle: listLinkifiers},
		{method: "GET", path: "/api/v1/realm/filters", auth: authUser, handle: listFilters},
		{method: "POST", path: "/api/v1/realm/filters", auth: authUser, handle: addLinkifier},
		{method: "PATCH", path: "/api/v1/realm/filters/{filter_id}", auth: authUser, handle: updateLinkifier},
		{method: "DELETE", path: "/api/v1/realm/filters/{filter_id}", auth: authUser, handle: deleteLinkifier},
		{method: "POST", path: "/api/v1/mark_all_as_read", auth: authUser, handle: markAllAsRead},
		{method: "POST", path: "/api/v1/mark_stream_as_read", auth: authUser, handle: markStreamAsRead},
		{method: "POST", path: "/api/v1/mark_topic_as_read", auth: authUser, handle: markTopicAsRead},
	}
}
