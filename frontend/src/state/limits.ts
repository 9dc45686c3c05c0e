// The server's limits on what people type, in characters (Zulip's where it
// has one; backend/domain checks them, these only keep a form from taking
// more than the server will store). Text stored before a limit still shows
// in full: maxLength stops typing, not an existing value.
export const limits = {
  realmName: 40,
  realmDescription: 1000,
  fullName: 100,
  email: 254,
  streamName: 60,
  streamDescription: 1024,
  topic: 60,
  statusText: 60,
  emojiName: 50,
  linkifierPattern: 1000,
  urlTemplate: 2048,
  profileFieldName: 40,
  profileFieldHint: 80,
  shortProfileValue: 50,
  longProfileValue: 500,
  urlProfileValue: 2048,
} as const
