// The sidebar's Inbox says how a promotion proposal was answered in words of the page's language, not by the code
// the Inbox row stores ('approved', 'declined'); any other reply is shown as the text it is.
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { openPage, render } from '../page-dom.js';

const row = (response: string, type = 'proposal') => ({
  inbox_id: 'INB-1',
  type,
  status: 'responded',
  priority: 'normal',
  title: 'Share a learning?',
  body: 'Worked for 3 members',
  from_agent: 'kaigi',
  response,
  created_at: '',
});

async function shown(lang: 'ja' | 'en', item: object): Promise<string> {
  const page = openPage(await render('sidebar', lang));
  page.calls.length = 0;
  vm.runInContext('Inbox.load()', page.context);
  const call = page.calls.find((c) => c.fn === 'listInbox')!;
  call.ok([item]);
  return page.byId('inbox-INB-1')!.textContent;
}

describe('the sidebar Inbox', () => {
  it('says an answered promotion proposal was approved or declined, in both languages', async () => {
    expect(await shown('en', row('approved'))).toContain('Approved: the learning is shared');
    expect(await shown('en', row('approved'))).not.toContain('Reply: approved');
    expect(await shown('ja', row('declined'))).toContain('却下済み');
    expect(await shown('ja', row('declined'))).not.toContain('declined');
  });

  it('shows any other reply as its text, a key of Object.prototype too', async () => {
    expect(await shown('en', row('constructor'))).toContain('Reply: constructor');
    expect(await shown('en', row('approved', 'question'))).toContain('Reply: approved');
  });
});
