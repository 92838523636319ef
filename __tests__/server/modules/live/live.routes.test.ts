import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LiveChange } from '../../../../domain/live';
import * as session from '../../../../server/modules/auth/session.service';
import { liveFeedOf, type LiveListener } from '../../../../server/modules/live/live.feed';
import { requestWithdrawal } from '../../../../server/modules/withdrawals/requestWithdrawal.service';
import { build, dbKind, type TestApp } from '../../helpers';
import { addMember, credit, trc20Address } from '../deposits/fixtures';
import { actingAs } from '../system/fixtures';
import { WITHDRAW_SETTING } from '../withdrawals/fixtures';

jest.setTimeout(30_000);

/** An open event stream: the events read so far, and a wait for the next one that matches. */
function listen(base: string, token: string) {
  const events: Array<{ event: string; data: unknown }> = [];
  let ended = false;
  let wake = () => {};
  let status = 0;
  let type = '';
  const req = http.get(`${base}/v1/admin/events`, { headers: { authorization: token } }, (res) => {
    status = res.statusCode ?? 0;
    type = String(res.headers['content-type']);
    let buf = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      buf += chunk;
      let i: number;
      while ((i = buf.indexOf('\n\n')) >= 0) {
        const block = buf.slice(0, i);
        buf = buf.slice(i + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event) events.push({ event, data: data ? JSON.parse(data) : null });
      }
      wake();
    });
    res.on('end', () => {
      ended = true;
      wake();
    });
  });
  const next = async <T>(pick: (e: { event: string; data: unknown }) => T | undefined, ms = 10_000): Promise<T> => {
    const until = Date.now() + ms;
    for (;;) {
      for (const e of events.splice(0)) {
        const v = pick(e);
        if (v !== undefined) return v;
      }
      if (Date.now() > until) throw new Error('no such event');
      await new Promise<void>((r) => {
        wake = r;
        setTimeout(r, 200);
      });
    }
  };
  return {
    next,
    change: (topic: string) =>
      next((e) =>
        e.event === 'change' && (e.data as LiveChange).topics.includes(topic as never)
          ? (e.data as LiveChange)
          : undefined,
      ),
    get ended() {
      return ended;
    },
    get status() {
      return status;
    },
    get type() {
      return type;
    },
    close: () => req.destroy(),
  };
}

describe(`the live channel (${dbKind})`, () => {
  let t: TestApp;
  let token: string;
  let base: string;
  beforeEach(async () => {
    t = await build();
    token = await t.login();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterEach(() => t.close());
  /** A member with 1,000 USDT, and 提现 open to every request. */
  const memberWhoMayWithdraw = async () => {
    const memberId = await addMember(t);
    await credit(t, memberId, 'USDT', '1000');
    await t.call('POST', '/v1/admin/withdraw/setting', { token, body: { type: 1, ...WITHDRAW_SETTING } });
    return memberId;
  };

  it('refuses a caller without a session', async () => {
    const r = await t.call('GET', '/v1/admin/events');
    expect(r.code).not.toBe(200);
    expect(liveFeedOf(t.app.ctx).size).toBe(0);
  });

  it('announces a member request with its news, a manager change by its target, each only to managers of its pages', async () => {
    const memberId = await memberWhoMayWithdraw();
    const admin = listen(base, token);
    const reader = await actingAs(t, 'reader01', ['notice:view']);
    const other = listen(base, reader.token);
    // Each is told once the first look after it came is taken: from then on nothing is missed.
    const ready = (e: { event: string }) => (e.event === 'ready' ? true : undefined);
    expect(await admin.next(ready)).toBe(true);
    expect(await other.next(ready)).toBe(true);
    expect(admin.status).toBe(200);
    expect(admin.type).toMatch(/^text\/event-stream/);
    expect(liveFeedOf(t.app.ctx).size).toBe(2);

    await requestWithdrawal(t.app.ctx, { memberId, type: 1, amount: '100', chain: 'TRC20', address: trc20Address() });
    expect(await admin.change('withdrawal')).toEqual({ topics: ['withdrawal'], news: { withdraw: 1 } });
    // The notice-only manager hears of notices, never of withdrawals (nor of the op log he may not read).

    const saved = await t.call('POST', '/v1/admin/notice/opt', {
      token,
      body: { action: 'create', title: '停机维护', content: '<p>今晚维护</p>', pinned: false },
    });
    expect(saved.code).toBe(200);
    expect(await other.next((e) => (e.event === 'change' ? e.data : undefined))).toEqual({
      topics: ['notice'],
      news: {},
    });
    expect((await admin.change('notice')).topics).toEqual(['notice', 'oplog']);
    admin.close();
    other.close();
    await new Promise((r) => setTimeout(r, 200));
    expect(liveFeedOf(t.app.ctx).size).toBe(0);
  });

  it('ends the stream of a session that ends, with a session event', async () => {
    const s = listen(base, token);
    await new Promise((r) => setTimeout(r, 300));
    expect((await t.call('POST', '/v1/admin/user/logout', { token })).code).toBe(200);
    const feed = liveFeedOf(t.app.ctx);
    for (let i = 0; i < 5; i++) await feed.tick();
    expect(await s.next((e) => (e.event === 'session' ? true : undefined))).toBe(true);
    await s.next(() => undefined, 2000).catch(() => undefined);
    expect(s.ended).toBe(true);
    expect(feed.size).toBe(0);
  });

  it('keeps no listener for a console gone before its session was looked up, and serves no HEAD', async () => {
    const real = session.resolveSession;
    const slow = jest.spyOn(session, 'resolveSession').mockImplementation(async (...a: Parameters<typeof real>) => {
      await new Promise((r) => setTimeout(r, 300));
      return real(...a);
    });
    const req = http.get(`${base}/v1/admin/events`, { headers: { authorization: token } });
    req.on('error', () => undefined);
    await new Promise((r) => setTimeout(r, 100));
    req.destroy(); // gone while the lookup waits
    await new Promise((r) => setTimeout(r, 600));
    slow.mockRestore();
    expect(liveFeedOf(t.app.ctx).size).toBe(0);
    const head = await fetch(`${base}/v1/admin/events`, { method: 'HEAD', headers: { authorization: token } });
    expect(head.headers.get('content-type')).not.toMatch(/event-stream/);
    expect(liveFeedOf(t.app.ctx).size).toBe(0);
  });

  it('forgets a look still in flight when the last console leaves: the next one hears nothing old', async () => {
    const memberId = await memberWhoMayWithdraw();
    const feed = liveFeedOf(t.app.ctx);
    const listener = (log: unknown[]): LiveListener => ({
      sessionId: 0,
      permVersion: 0,
      codes: new Set(['withdraw:view']),
      send: (c) => log.push(c),
      ready: () => undefined,
      expire: () => undefined,
      close: () => undefined,
    });
    const off = feed.subscribe(listener([]));
    await new Promise((r) => setTimeout(r, 1200));
    const inFlight = feed.tick();
    off(); // the last console leaves while a look runs
    await inFlight;
    await requestWithdrawal(t.app.ctx, { memberId, type: 1, amount: '100', chain: 'TRC20', address: trc20Address() });
    const later: unknown[] = [];
    const off2 = feed.subscribe(listener(later));
    await new Promise((r) => setTimeout(r, 2200));
    off2();
    expect(later).toEqual([]);
  });
});
