package api

import (
	"crypto/subtle"
	"net/http"
	"time"

	"lanchat/backend/domain"
	"lanchat/backend/store"
)

// sessionCookie carries a browser's session token. It is HttpOnly (no
// script reads it) and SameSite=Strict (no other site's page sends it).
const sessionCookie = "lanchat_session"

// csrfHeader carries the session's CSRF token on every write a page makes.
const csrfHeader = "X-CSRF-Token"

func setSessionCookie(w http.ResponseWriter, r *http.Request, token string, maxAge time.Duration) {
	http.SetCookie(w, &http.Cookie{
		Name: sessionCookie, Value: token, Path: "/", MaxAge: int(maxAge.Seconds()),
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil,
	})
}

// signIn is the web UI's password login: it opens a session cookie and
// returns the CSRF token the page keeps in memory.
func signIn(c *call) (J, error) {
	username, password := c.p.str("username"), c.p.str("password")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	bs, err := c.api.svc.SignIn(username, password)
	if err != nil {
		return nil, err
	}
	setSessionCookie(c.w, c.r, bs.Token, domain.SessionLifetime)
	return J{"csrf_token": bs.CSRF, "user_id": bs.UserID, "email": bs.Email}, nil
}

// signOut ends the session and clears the cookie.
func signOut(c *call) (J, error) {
	if cookie, err := c.r.Cookie(sessionCookie); err == nil {
		if err := c.api.svc.SignOut(cookie.Value); err != nil {
			return nil, err
		}
	}
	setSessionCookie(c.w, c.r, "", -time.Second)
	return nil, nil
}

// sessionToken is the request's session cookie, "" without one.
func sessionToken(c *call) string {
	if cookie, err := c.r.Cookie(sessionCookie); err == nil {
		return cookie.Value
	}
	return ""
}

// currentSession tells a reloaded page who is signed in, and its CSRF
// token.
func currentSession(c *call) (J, error) {
	cookie, err := c.r.Cookie(sessionCookie)
	if err != nil {
		// No cookie is an answer, not a failure: the signed-out page asks on
		// every load, and a 401 there would be logged as an error each time.
		return J{"signed_in": false}, nil
	}
	u, csrf, err := c.api.svc.SessionUser(cookie.Value)
	if err != nil {
		return nil, err
	}
	return J{"signed_in": true, "csrf_token": csrf, "user_id": u.ID, "email": u.Email, "full_name": u.FullName}, nil
}

// sessionAuth authenticates a request by its session cookie; writes must
// also carry the session's CSRF token.
func (a *API) sessionAuth(r *http.Request) (store.User, bool, error) {
	cookie, err := r.Cookie(sessionCookie)
	if err != nil {
		return store.User{}, false, nil
	}
	u, csrf, err := a.svc.SessionUser(cookie.Value)
	if err != nil {
		return store.User{}, true, err
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead &&
		subtle.ConstantTimeCompare([]byte(r.Header.Get(csrfHeader)), []byte(csrf)) != 1 {
		return store.User{}, true, domain.ErrBadCSRF
	}
	return u, true, nil
}

// fromThisSite tells a request made by this server's own pages (or the
// desktop window, or a client that is not a browser) from a form another
// site's page posts: browsers name the page's origin in Origin and say
// whether it is another site in Sec-Fetch-Site.
func fromThisSite(r *http.Request) bool {
	switch r.Header.Get("Sec-Fetch-Site") {
	case "", "same-origin", "none":
		return sameOriginOrWails(r)
	}
	return false
}

// setupState tells the UI whether to show first-run setup.
func setupState(c *call) (J, error) {
	needed, err := c.api.svc.SetupNeeded()
	if err != nil {
		return nil, err
	}
	return J{"setup_needed": needed}, nil
}

// setUpOrganization is first-run setup: it creates the owner, signs them in
// like /accounts/login, and also returns their API key (for the desktop
// window, where cookies are unreliable).
func setUpOrganization(c *call) (J, error) {
	req := domain.OrganizationSetup{
		RealmName: c.p.str("realm_name"),
		Owner:     domain.NewUser{FullName: c.p.str("full_name"), Email: c.p.str("email"), Password: c.p.str("password")},
	}
	token := c.p.str("token")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	owner, err := c.api.svc.SetUpOrganization(token, req)
	if err != nil {
		return nil, err
	}
	bs, err := c.api.svc.SignIn(owner.Email, req.Owner.Password)
	if err != nil {
		return nil, err
	}
	setSessionCookie(c.w, c.r, bs.Token, domain.SessionLifetime)
	return J{"csrf_token": bs.CSRF, "user_id": bs.UserID, "email": bs.Email, "api_key": owner.APIKey}, nil
}
