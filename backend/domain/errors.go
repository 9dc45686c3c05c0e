package domain

import (
	"fmt"
	"unicode/utf8"
)

// Error codes, with Zulip's names: clients branch on them.
const (
	CodeBadRequest             = "BAD_REQUEST"
	CodeVariableMissing        = "REQUEST_VARIABLE_MISSING"
	CodeVariableInvalid        = "REQUEST_VARIABLE_INVALID"
	CodeInvalidJSON            = "INVALID_JSON"
	CodeBadNarrow              = "BAD_NARROW"
	CodeStreamDoesNotExist     = "STREAM_DOES_NOT_EXIST"
	CodeBadEventQueueID        = "BAD_EVENT_QUEUE_ID"
	CodeUnauthorizedPrincipal  = "UNAUTHORIZED_PRINCIPAL"
	CodeReactionAlreadyExists  = "REACTION_ALREADY_EXISTS"
	CodeReactionDoesNotExist   = "REACTION_DOES_NOT_EXIST"
	CodeUnauthorized           = "UNAUTHORIZED"
	CodeInvalidAPIKey          = "INVALID_API_KEY"
	CodeUserDeactivated        = "USER_DEACTIVATED"
	CodeAuthenticationFailed   = "AUTHENTICATION_FAILED"
	CodeRateLimitHit           = "RATE_LIMIT_HIT"
	CodeInvalidPushDeviceToken = "INVALID_PUSH_DEVICE_TOKEN"
	// Wildcard mentions the realm's wildcard_mention_policy forbids (level 229).
	CodeStreamWildcardMentionNotAllowed = "STREAM_WILDCARD_MENTION_NOT_ALLOWED"
	CodeTopicWildcardMentionNotAllowed  = "TOPIC_WILDCARD_MENTION_NOT_ALLOWED"
	// CodeExpectationMismatch refuses a group-setting change whose "old"
	// is not the current value.
	CodeExpectationMismatch = "EXPECTATION_MISMATCH"
	// CodeCannotDeactivateGroupInUse refuses to deactivate a group a
	// setting uses, with the objections (level 298).
	CodeCannotDeactivateGroupInUse = "CANNOT_DEACTIVATE_GROUP_IN_USE"
	// CodeUnsupportedWebhookEvent answers an event an integration ignores:
	// as in Zulip it is carried with HTTP 200, so senders neither retry it
	// nor disable the webhook, and they log the answer.
	CodeUnsupportedWebhookEvent = "UNSUPPORTED_WEBHOOK_EVENT_TYPE"
)

// Error is a failure a client can act on: a code, a sentence for people and
// the code's extra fields (for example `stream` with STREAM_DOES_NOT_EXIST).
// The transport decides how to carry it; the domain never speaks HTTP.
type Error struct {
	Code   string
	Msg    string
	Fields map[string]any
	// NotFound marks an object named by the path that does not exist
	// (Zulip's code stays BAD_REQUEST; its transport answers 404).
	NotFound bool
}

func (e *Error) Error() string { return e.Code + ": " + e.Msg }

// errorf builds an Error with a formatted message.
func errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// With returns a copy of e carrying one more extra field.
func (e *Error) With(key string, value any) *Error {
	fields := make(map[string]any, len(e.Fields)+1)
	for k, v := range e.Fields {
		fields[k] = v
	}
	fields[key] = value
	return &Error{Code: e.Code, Msg: e.Msg, Fields: fields, NotFound: e.NotFound}
}

// BadRequest is the default failure for invalid input or missing permission.
func BadRequest(format string, args ...any) *Error {
	return errorf(CodeBadRequest, format, args...)
}

// checkLength refuses text of more than limit characters (code points, as
// Python counts them) in the words of Zulip's check_capped_string. Limits
// apply when text is written: longer text stored before a limit existed
// still loads.
func checkLength(field, text string, limit int) error {
	if utf8.RuneCountInString(text) > limit {
		return BadRequest("%s is too long (limit: %d characters)", field, limit)
	}
	return nil
}

// NotFound reports that the object a request's path names does not exist.
func NotFound(format string, args ...any) *Error {
	e := BadRequest(format, args...)
	e.NotFound = true
	return e
}

// MissingArgument reports a required parameter the request lacks.
func MissingArgument(name string) *Error {
	return errorf(CodeVariableMissing, "Missing '%s' argument", name).With("var_name", name)
}

// InvalidArgument reports a parameter whose value cannot be used; why is a
// short phrase such as "is not an integer".
func InvalidArgument(name, why string) *Error {
	return errorf(CodeVariableInvalid, "Invalid %s: %s", name, why).With("var_name", name)
}

// StreamDoesNotExist names a stream that is unknown or hidden from the actor:
// both answer alike so private streams do not leak.
func StreamDoesNotExist(name string) *Error {
	return errorf(CodeStreamDoesNotExist, "Channel '%s' does not exist", name).With("stream", name)
}

// Errors that need no parameters.
var (
	ErrNotAdmin = BadRequest("Must be an organization administrator")
	// ErrAdminRequired is Zulip's OrganizationAdministratorRequiredError,
	// the answer of its administrators-only endpoints such as delete_topic.
	ErrAdminRequired = errorf(CodeUnauthorizedPrincipal, "Must be an organization administrator")
	// ErrNotOwner is Zulip's OrganizationOwnerRequiredError.
	ErrNotOwner = errorf(CodeUnauthorizedPrincipal, "Must be an organization owner")
	ErrNoAuth   = errorf(CodeUnauthorized, "Not logged in: API authentication or user session required")
	ErrBadKey   = errorf(CodeInvalidAPIKey, "Invalid API key")
	ErrInactive = errorf(CodeUserDeactivated, "Account is deactivated")
	ErrLogin    = errorf(CodeAuthenticationFailed, "Your username or password is incorrect")
	// ErrBotRequest refuses bots on endpoints for people only, as Zulip's
	// human_users_only does, before the request is looked at.
	ErrBotRequest = BadRequest("This endpoint does not accept bot requests.")
	// ErrWebhookBotAPI refuses an incoming-webhook bot's key on a route it
	// may not call: Zulip answers it as a failed authentication (401).
	ErrWebhookBotAPI = errorf(CodeUnauthorized, "This API is not available to incoming webhook bots.")
)
