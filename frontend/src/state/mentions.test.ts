import { describe, expect, it } from 'vitest'
import { markMentionsOfMe, mentionsMe } from './mentions'

const me = 7
const myGroups = (id: number) => id === 3
const mark = (html: string, flags: string[]) => markMentionsOfMe(html, flags, me, myGroups)

describe('mentions of me', () => {
  it('reads the mention flags, wildcards included', () => {
    expect(mentionsMe(['read'])).toBe(false)
    for (const f of ['mentioned', 'wildcard_mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned']) expect(mentionsMe([f])).toBe(true)
  })
  it.each([
    ['my name', '<span class="user-mention" data-user-id="7">@Me</span>', ['mentioned'], true],
    ['someone else', '<span class="user-mention" data-user-id="8">@Bob</span>', ['mentioned'], false],
    ['a group I am in', '<span class="user-group-mention" data-user-group-id="3">@support</span>', ['mentioned'], true],
    ['a group I am not in', '<span class="user-group-mention" data-user-group-id="4">@sales</span>', ['mentioned'], false],
    ['@all', '<span class="user-mention channel-wildcard-mention" data-user-id="*">@all</span>', ['wildcard_mentioned', 'stream_wildcard_mentioned'], true],
    ['@topic', '<span class="topic-mention">@topic</span>', ['wildcard_mentioned', 'topic_wildcard_mentioned'], true],
    ['@all when the flags say not me (a muted wildcard)', '<span class="user-mention channel-wildcard-mention" data-user-id="*">@all</span>', [], false],
    ['a silent mention of me', '<span class="user-mention silent" data-user-id="7">Me</span>', ['read'], false],
  ])('highlights %s only when it is me', (_, html, flags, mine) => {
    expect(mark(`<p>hi ${html}</p>`, flags).includes('user-mention-me')).toBe(mine)
  })
  it('marks only my pill among several', () => {
    const html = '<p><span class="user-mention" data-user-id="8">@Bob</span> <span class="user-mention" data-user-id="7">@Me</span></p>'
    expect(mark(html, ['mentioned'])).toBe('<p><span class="user-mention" data-user-id="8">@Bob</span> <span class="user-mention user-mention-me" data-user-id="7">@Me</span></p>')
  })
})
