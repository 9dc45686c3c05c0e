package api

// peopleRoutes: users, groups, presence, custom emoji, uploads, bots and
// incoming webhooks.
func (a *API) peopleRoutes() []route {
	return []route{
		{method: "GET", path: "/api/v1/users", auth: authUser, handle: listUsers},
		{method: "GET", path: "/api/v1/users/me", auth: authUser, handle: getOwnUser},
		{method: "GET", path: "/api/v1/users/{user_id}", auth: authUser, handle: getUser},
		{method: "POST", path: "/api/v1/users", auth: authUser, handle: createUser},
		{method: "PATCH", path: "/api/v1/users/{user_id}", auth: authUser, handle: updateUser},
		{method: "DELETE", path: "/api/v1/users/{user_id}", auth: authUser, handle: deactivateUser},
		{method: "POST", path: "/api/v1/users/{user_id}/reactivate", auth: authUser, handle: reactivateUser},
		{method: "PATCH", path: "/api/v1/settings", auth: authUser, handle: updateOwnSettings},
		{method: "POST", path: "/api/v1/users/me/api_key/regenerate", auth: authUser, handle: regenerateAPIKey},
		{method: "POST", path: "/api/v1/users/me/status", auth: authUser, handle: setOwnStatus},
		{method: "GET", path: "/avatar/{user}", auth: authUser, handle: avatar},
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
		{method: "GET", path: "/user_avatars/1/emoji/images/{file}", auth: authUser, handle: emojiImage},

		{method: "POST", path: "/api/v1/user_uploads", auth: authUser, upload: true, maxBody: maxUploadBody, handle: uploadFile},
		{method: "GET", path: "/user_uploads/{realm}/{dir}/{token}/{name}", auth: authUser, handle: serveUpload},
		{method: "GET", path: "/api/v1/user_uploads/{realm}/{dir}/{token}/{name}", auth: authUser, handle: temporaryUploadURL},
		// The token is the credential: whoever holds the URL may fetch the file for a minute.
		{method: "GET", path: "/user_uploads/temporary/{token}/{name}", auth: authNone, handle: serveTemporaryUpload},
		{method: "GET", path: "/api/v1/attachments", auth: authUser, handle: listAttachments},
		{method: "DELETE", path: "/api/v1/attachments/{attachment_id}", auth: authUser, handle: deleteAttachment},
	}
}
