// Session: the active user's email only for the owner and the owner's domain; a stable key for everyone.
import { describe, expect, it } from 'vitest';
import { gas, withRuntime } from '../../helpers.js';

const SAME = 'colleague@example.com';
const OTHER = 'friend@gmail.example';
const WHO = `return [Session.getActiveUser().getEmail(), Session.getEffectiveUser().getEmail(),
  Session.getTemporaryActiveUserKey()];`;

describe('Session users', () => {
  it("hides an editor's email unless the runtime is told they share the owner's domain", async () => {
    await withRuntime(
      async (rt) => {
        const [ownerEmail, , ownerKey] = await gas(rt, WHO, { kind: 'menu' });
        expect(ownerEmail).toBe(rt.owner);
        const [sameEmail, sameEffective] = await gas(rt, WHO, { kind: 'menu', user: SAME });
        expect([sameEmail, sameEffective]).toEqual([SAME, SAME]);
        const [otherEmail, otherEffective, otherKey] = await gas(rt, WHO, { kind: 'server', user: OTHER });
        expect(otherEmail).toBe('');
        // The script still runs as that editor, who authorised it.
        expect(otherEffective).toBe(OTHER);
        // The key is opaque (no trace of the email), stable for the user, and different between users.
        expect(otherKey).toMatch(/^[A-Za-z0-9_-]{20,}$/);
        expect(otherKey).not.toMatch(/friend|gmail/);
        expect(otherKey).not.toBe(ownerKey);
        expect((await gas(rt, WHO, { kind: 'menu', user: OTHER }))[2]).toBe(otherKey);
      },
      { users: [{ email: SAME, sameDomain: true }, { email: OTHER }] },
    );
  });

  it('names nobody in a trigger; the effective user there is the trigger owner', async () => {
    await withRuntime(async (rt) => {
      expect((await gas(rt, WHO, { kind: 'trigger' })).slice(0, 2)).toEqual(['', rt.owner]);
    });
  });

  it('runs an anonymous web-app request as the deployer, with no active user and no key', async () => {
    await withRuntime(async (rt) => {
      expect(await gas(rt, WHO, { kind: 'webapp' })).toEqual(['', rt.owner, '']);
    });
  });
});
