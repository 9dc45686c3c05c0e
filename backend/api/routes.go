package api

// routes is the whole HTTP surface in one table, grouped by area: log-in,
// events, streams, messages, the realm, then people, groups, presence,
// bots, webhooks, emoji and uploads. A new endpoint is one row here and
// one thin handler that calls one domain action.
func (a *API) routes() []route {
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
		// GET /users/me/{stream_id}/topics and /users/{user_id}/subscriptions/{stream_id}:
		// net/http cannot register both (each is more specific in one segment).
		{method: "GET", path: "/api/v1/users/{user}/{first}/{second}", auth: authUser, handle: userStreamRoute},
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

		{method: "GET", path: "/api/v1/messages", auth: authUser, heavy: true, handle: getMessages},
		{method: "POST", path: "/api/v1/messages", auth: authUser, webhookBots: true, handle: sendMessage},
		{method: "GET", path: "/api/v1/messages/matches_narrow", auth: authUser, heavy: true, handle: matchesNarrow},
		{method: "GET", path: "/api/v1/messages/{message_id}", auth: authUser, handle: getMessage},
		{method: "PATCH", path: "/api/v1/messages/{message_id}", auth: authUser, handle: editMessage},
		{method: "DELETE", path: "/api/v1/messages/{message_id}", auth: authUser, handle: deleteMessage},
		{method: "GET", path: "/api/v1/messages/{message_id}/history", auth: authUser, handle: messageHistory},
		{method: "POST", path: "/api/v1/messages/{message_id}/reactions", auth: authUser, handle: addReaction},
		{method: "DELETE", path: "/api/v1/messages/{message_id}/reactions", auth: authUser, handle: removeReaction},
		{method: "POST", path: "/api/v1/submessage", auth: authUser, handle: addSubmessage},
		{method: "POST", path: "/api/v1/messages/flags", auth: authUser, handle: updateFlags},
		{method: "POST", path: "/api/v1/messages/flags/narrow", auth: authUser, heavy: true, handle: updateFlagsForNarrow},
		{method: "POST", path: "/api/v1/messages/render", auth: authUser, handle: renderPreview},

		{method: "PATCH", path: "/api/v1/realm", auth: authUser, handle: updateRealm},
		// Lanchat's own: an owner replaces a new organization with an export's.
		{method: "POST", path: "/api/v1/realm/import", auth: authUser, upload: true, maxBody: a.opts.MaxImportSize, handle: startImport},
		{method: "GET", path: "/api/v1/realm/import", auth: authUser, handle: importStatus},
		{method: "GET", path: "/api/v1/realm/linkifiers", auth: authUser, handle: listLinkifiers},
		{method: "GET", path: "/api/v1/realm/filters", auth: authUser, handle: listFilters},
		{method: "POST", path: "/api/v1/realm/filters", auth: authUser, handle: addLinkifier},
		{method: "PATCH", path: "/api/v1/realm/filters/{filter_id}", auth: authUser, handle: updateLinkifier},
		{method: "DELETE", path: "/api/v1/realm/filters/{filter_id}", auth: authUser, handle: deleteLinkifier},
		{method: "POST", path: "/api/v1/mark_all_as_read", auth: authUser, handle: markAllAsRead},
		{method: "POST", path: "/api/v1/mark_stream_as_read", auth: authUser, handle: markStreamAsRead},
		{method: "POST", path: "/api/v1/mark_topic_as_read", auth: authUser, handle: markTopicAsRead},

		{method: "GET", path: "/api/v1/users", auth: authUser, handle: listUsers},
		{method: "GET", path: "/api/v1/users/me", auth: authUser, handle: getOwnUser},
		{method: "GET", path: "/api/v1/users/{user_id}", auth: authUser, handle: getUser},
		{method: "POST", path: "/api/v1/users", auth: authUser, handle: createUser},
		{method: "PATCH", path: "/api/v1/users/{user_id}", auth: authUser, handle: updateUser},
		{method: "DELETE", path: "/api/v1/users/{user_id}", auth: authUser, handle: deactivateUser},
		{method: "POST", path: "/api/v1/users/{user_id}/reactivate", auth: authUser, handle: reactivateUser},
		{method: "POST", path: "/api/v1/users/{user_id}/password", auth: authUser, handle: issuePassword},
		{method: "PATCH", path: "/api/v1/settings", auth: authUser, handle: updateOwnSettings},
		{method: "POST", path: "/api/v1/users/me/api_key/regenerate", auth: authUser, handle: regenerateAPIKey},
		{method: "POST", path: "/api/v1/users/me/status", auth: authUser, handle: setOwnStatus},
		{method: "GET", path: "/avatar/{user}", auth: authUser, handle: avatar},
		{method: "GET", path: "/avatar/{user}/medium", auth: authUser, handle: mediumAvatar},
		{method: "POST", path: "/api/v1/users/me/avatar", auth: authUser, upload: true, maxBody: maxEmojiBody, handle: uploadAvatar},
		{method: "DELETE", path: "/api/v1/users/me/avatar", auth: authUser, handle: resetAvatar},
		{method: "GET", path: "/api/v1/users/me/alert_words", auth: authUser, handle: listAlertWords},
		{method: "POST", path: "/api/v1/users/me/alert_words", auth: authUser, handle: addAlertWords},
		{method: "DELETE", path: "/api/v1/users/me/alert_words", auth: authUser, handle: removeAlertWords},

		{method: "GET", path: "/api/v1/user_groups", auth: authUser, handle: listUserGroups},
		{method: "POST", path: "/api/v1/user_groups/create", auth: authUser, handle: createUserGroup},
		{method: "PATCH", path: "/api/v1/user_groups/{group_id}", auth: authUser, handle: updateUserGroup},
		{method: "DELETE", path: "/api/v1/user_groups/{group_id}", auth: authUser, handle: deleteUserGroup},
		{method: "GET", path: "/api/v1/user_groups/{group_id}/members", auth: authUser, handle: groupMembers},
		{method: "POST", path: "/api/v1/user_groups/{group_id}/members", auth: authUser, handle: updateGroupMembers},

		{method: "POST", path: "/api/v1/users/me/presence", auth: authUser, handle: updatePresence},
		{method: "GET", path: "/api/v1/users/{user}/presence", auth: authUser, handle: userPresence},
		{method: "GET", path: "/api/v1/realm/presence", auth: authUser, handle: realmPresence},

		{method: "GET", path: "/api/v1/bots", auth: authUser, handle: listBots},
		{method: "POST", path: "/api/v1/bots", auth: authUser, handle: createBot},
		{method: "PATCH", path: "/api/v1/bots/{bot_id}", auth: authUser, handle: updateBot},
		{method: "DELETE", path: "/api/v1/bots/{bot_id}", auth: authUser, handle: deactivateBot},
		{method: "POST", path: "/api/v1/bots/{bot_id}/api_key/regenerate", auth: authUser, handle: regenerateBotKey},
		{method: "GET", path: "/api/v1/bot_storage", auth: authUser, handle: getBotStorage},
		{method: "PUT", path: "/api/v1/bot_storage", auth: authUser, handle: putBotStorage},
		{method: "DELETE", path: "/api/v1/bot_storage", auth: authUser, handle: removeBotStorage},

		{method: "POST", path: "/api/v1/external/{integration}", auth: authWebhook, maxBody: maxWebhookBody, webhookBots: true, handle: webhook},

		{method: "GET", path: "/api/v1/realm/emoji", auth: authUser, handle: listRealmEmoji},
		{method: "POST", path: "/api/v1/realm/emoji/{emoji_name}", auth: authUser, upload: true, maxBody: maxEmojiBody, handle: addRealmEmoji},
		{method: "DELETE", path: "/api/v1/realm/emoji/{emoji_name}", auth: authUser, handle: deactivateRealmEmoji},
		// Public, as in Zulip: messages and reactions show them wherever they are read.
		{method: "GET", path: "/user_avatars/1/emoji/images/{file}", auth: authNone, handle: emojiImage},

		{method: "POST", path: "/api/v1/user_uploads", auth: authUser, upload: true, maxBody: maxUploadBody, handle: uploadFile},
		{method: "GET", path: "/user_uploads/{realm}/{dir}/{token}/{name}", auth: authUser, handle: serveUpload},
		{method: "GET", path: "/api/v1/user_uploads/{realm}/{dir}/{token}/{name}", auth: authUser, handle: temporaryUploadURL},
		// The token is the credential: whoever holds the URL may fetch the file for a minute.
		{method: "GET", path: "/user_uploads/temporary/{token}/{name}", auth: authNone, handle: serveTemporaryUpload},
		{method: "GET", path: "/api/v1/attachments", auth: authUser, handle: listAttachments},
		{method: "DELETE", path: "/api/v1/attachments/{attachment_id}", auth: authUser, handle: deleteAttachment},
	}
}
