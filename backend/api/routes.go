package api

// routes is the whole HTTP surface in one table. A new endpoint is one row
// here and one thin handler that calls one domain action.
func (a *API) routes() []route {
	return []route{
		{method: "GET", path: "/api/v1/server_settings", auth: authNone, handle: serverSettings},
		{method: "POST", path: "/api/v1/fetch_api_key", auth: authNone, handle: fetchAPIKey},
		{method: "POST", path: "/api/v1/dev_fetch_api_key", auth: authNone, handle: devFetchAPIKey},

		{method: "GET", path: "/api/v1/users", auth: authUser, handle: listUsers},
		{method: "GET", path: "/api/v1/users/me", auth: authUser, handle: getOwnUser},
		{method: "GET", path: "/api/v1/users/{user_id}", auth: authUser, handle: getUser},
		{method: "GET", path: "/api/v1/user_groups", auth: authUser, handle: listUserGroups},
	}
}
