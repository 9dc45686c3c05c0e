package api

// peopleRoutes: users, groups, presence, custom emoji, uploads, bots and
// incoming webhooks.
func (a *API) peopleRoutes() []route {
	return []route{
		{method: "GET", path: "/api/v1/users", auth: authUser, handle: listUsers},
		{method: "GET", path: "/api/v1/users/me", auth: authUser, handle: getOwnUser},
		{method: "GET", path: "/api/v1/users/{user_id}", auth: authUser, handle: getUser},
		{method: "GET", path: "/api/v1/user_groups", auth: authUser, handle: listUserGroups},
	}
}
