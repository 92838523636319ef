/** Member fixtures: members made by the real createMember (one argon2 hash for all), zones straight in. */
import { hashPassword } from '../../../../server/passwords';
import { createMember } from '../../../../server/modules/members/members.service';
import { createZone } from '../../../../server/modules/members/zones.service';
import type { TestApp } from '../../helpers';

let hash: Promise<string> | undefined;
let seq = 0;

export async function makeMember(
  t: TestApp,
  over: {
    phone?: string;
    nickname?: string;
    inviterUid?: string;
    zoneId?: number;
    level?: number;
    status?: number;
  } = {},
) {
  seq += 1;
  const passwordHash = await (hash ??= hashPassword('abc123'));
  const { level, status, ...input } = over;
  return t.db.db
    .transaction()
    .execute((trx) =>
      createMember(
        trx,
        { phone: `137${String(seq).padStart(8, '0')}`, nickname: `会员${seq}`, ...input },
        { now: t.clock.now(), passwordHash, level, status },
      ),
    );
}

export async function makeZone(t: TestApp, name: string) {
  return t.db.db.transaction().execute((trx) => createZone(trx, { name }, t.clock.now()));
}

export async function memberRow(t: TestApp, id: number) {
  return t.db.db.selectFrom('member').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

export async function zoneRow(t: TestApp, id: number) {
  return t.db.db.selectFrom('zone').selectAll().where('id', '=', id).executeTakeFirst();
}
