// docs/prompts.md shows what a model is sent: its examples of the preamble, the shared data and the decider's role are
// compared with what the code builds for the demo discussion with the rule-based agents (`…` stands for text left
// out), and its weights-and-votes example is written from the code, every row of it (KAIGI_UPDATE_DOCS=1 npx vitest
// run tests/src/core/prompts/prompts-doc.test.ts rewrites it).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultPrompts } from '../../../../src/core/discussion/default-council.js';
import { phaseRequests } from '../../../../src/core/engine.js';
import { buildPreamble, buildShared } from '../../../../src/core/prompts/prompt-preamble.js';
import { buildUserText } from '../../../../src/core/prompts/prompt-user.js';
import { checkGenerated } from '../../../docs-block.js';
import { newDiscussion, runToRest, testEnv } from '../env.js';

const DOC = 'docs/prompts.md';
const doc = fs.readFileSync(path.resolve(__dirname, '../../../..', DOC), 'utf8');
const BEGIN = '<!-- weights: generated from src/core/prompts/prompt-user.ts -->';
const END = '<!-- end of weights -->';

// The ```text blocks of a section (from its heading to the next), each as its lines.
function examples(heading: string): string[][] {
  const from = doc.indexOf(`\n## ${heading}\n`);
  expect(from, `## ${heading} in ${DOC}`).toBeGreaterThanOrEqual(0);
  const to = doc.indexOf('\n## ', from + 1);
  const section = doc.slice(from, to < 0 ? undefined : to);
  return Array.from(section.matchAll(/```text\n([\s\S]*?)\n```/g), (m) => m[1].split('\n'));
}

// The lines of an example that the built text lacks: each line must be one of the text's lines, `…` standing for any
// run of characters in it; a line of `…` alone stands for lines left out.
function missing(example: string[], built: string): string[] {
  const lines = built.split('\n');
  const pattern = (l: string) =>
    new RegExp(
      `^${l
        .split('…')
        .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
    );
  return example.filter((l) => l.trim() !== '…' && !lines.some((x) => pattern(l).test(x)));
}

// The demo discussion decided by the rule-based agents, and what a phase's first call is sent.
const decided = (lang: 'ja' | 'en') => runToRest(newDiscussion(), testEnv({ lang })).d;
const request = (lang: 'ja' | 'en', phase: number) => phaseRequests(decided(lang), testEnv({ lang }), phase)[0].context;

describe(DOC, () => {
  it('shows the preamble and a specialist’s shared data as the code builds them, in English and Japanese', () => {
    const [preamble, shared, ja] = examples('The preamble and the shared data');
    const en = request('en', 2);
    expect(missing(preamble, buildPreamble(en))).toEqual([]);
    expect(missing(shared, buildShared(en))).toEqual([]);
    expect(missing(ja, buildPreamble(request('ja', 2)))).toEqual([]);
    // A block left out or moved is a change too: the examples hold these blocks, in this order.
    expect(shared.filter((l) => l.startsWith('<data ')).join(' ')).toBe(
      buildShared(en)
        .split('\n')
        .filter((l) => l.startsWith('<data '))
        .join(' '),
    );
  });

  it('shows the decider’s role as the default Prompts tab holds it, in both languages', () => {
    const [en, ja] = examples('Roles');
    const role = (lang: 'ja' | 'en') => defaultPrompts().find((p) => p.agent_id === 'decider' && p.language === lang)!;
    expect(missing(en, role('en').text)).toEqual([]);
    expect(missing(ja, role('ja').text)).toEqual([]);
  });

  it('shows the weights and votes the decider is sent, every row, as the code computes them', () => {
    const text = buildUserText(request('en', 5));
    const block = /<data name="weights_and_votes_computed_by_kaigi">\n([\s\S]*?)\n<\/data>/.exec(text)![1];
    const rows = block.split('\n');
    // One row per specialist who gave an opinion, then one per action voted for.
    expect(rows.filter((r) => /^[a-z_]+,(heavy|reference|crosscheck|feedback|note),/.test(r)).length).toBe(8);
    checkGenerated(DOC, BEGIN, END, [BEGIN, '```text', block, '```', END].join('\n'));
  });
});
