/**
 * Requests that arrive together: on PostgreSQL their session lookups share one statement
 * (server/db/coalesce.ts); on both databases each request still gets its own session's answer.
 */
import { Messages } from '../../../../domain/codes';
import * as statements from '../../../../server/db/statements';
import { build, dbKind, type TestApp } from '../../helpers';
import { actingAs, addManager, addRole, sessionOf } from '../system/fixtures';

describe(`session lookups of requests that arrive together (${dbKind})`, () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await build();
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await t.close();
  });

  it('answers each request by its own session, whatever the others carry', async () => {
    const admin = await t.login();
    const viewer = await actingAs(t, 'viewer01', ['manager:view']);
    const blind = await actingAs(t, 'blind01', ['member:view']);
    const disabled = await sessionOf(t, await addManager(t, 'gone01', await addRole(t, '停用', ['manager:view']), 0));
    const loggedOut = await t.login();
    expect((await t.call('POST', '/v1/admin/user/logout', { token: loggedOut })).code).toBe(200);

    const lookups = jest.spyOn(statements, 'readWithGenericPlan');
    const tokens = [admin, viewer.token, blind.token, disabled, loggedOut, 'bogus', admin, viewer.token];
    const answers = await Promise.all(
      tokens.map((token) =>
        t.app.inject({ method: 'GET', url: '/v1/admin/user/list', headers: { authorization: token } }),
      ),
    );
    expect(answers.map((r) => r.json().code)).toEqual([200, 200, 403, 302, 301, 301, 200, 200]);
    expect(answers[3].json().msg).toBe(Messages.sessionEnded);
    // One lookup per request on SQLite (no round trip to share); one statement for all on PostgreSQL.
    expect(lookups).toHaveBeenCalledTimes(dbKind === 'postgres' ? 1 : tokens.length);
  });

  it('keeps nothing between bursts: a disable is seen by the next one', async () => {
    const viewer = await actingAs(t, 'viewer02', ['manager:view']);
    const burst = () =>
      Promise.all(
        [1, 2, 3].map(() =>
          t.app.inject({ method: 'GET', url: '/v1/admin/user/list', headers: { authorization: viewer.token } }),
        ),
      );
    expect((await burst()).map((r) => r.json().code)).toEqual([200, 200, 200]);
    await t.db.db.updateTable('manager').set({ status: 0 }).where('id', '=', viewer.id).execute();
    expect((await burst()).map((r) => r.json().code)).toEqual([302, 302, 302]);
  });
});
