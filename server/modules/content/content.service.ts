/**
 * Notices and the two texts: rich text sanitized with the one allow-list before it is stored
 * (server/http/richText.ts), every change in the op log, every state change conditional (one winner).
 */
import type { Static } from '@sinclair/typebox';
import {
  ContentMessages,
  isProtocolId,
  NOTICE_EDITABLE,
  noticeEditable,
  NoticeActions,
  NoticeStatus,
  ProtocolTitles,
  type ProtocolId,
} from '../../../domain/content';
import type { Actor, Ctx } from '../../context';
import { badInput, conflict, notFound } from '../../errors';
import { sanitizeRichText } from '../../http/richText';
import { pageOf } from '../../db/keyset';
import { updateFromFirst } from '../../db/transitions';
import { parseRange } from '../../range';
import { changed, changeList, managerAction } from '../oplog/managerAction';
import {
  deleteNotice,
  findNotice,
  findProtocol,
  insertNotice,
  listNotices as readNotices,
  moveNotice,
  saveProtocol as writeProtocol,
  updateNotice,
  type NoticeRow,
  type NoticeValues,
} from './content.repository';
import type { NoticeListQuery, NoticeOptBody, ProtocolBody } from './content.schema';

function noticeView(r: NoticeRow) {
  return {
    id: Number(r.id),
    title: r.title,
    content: r.content,
    pinned: Number(r.pinned) === 1,
    status: Number(r.status) as NoticeStatus,
    publishedAt: r.published_at === null ? null : Number(r.published_at),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
    updatedBy: r.updated_by,
  };
}

export async function listNotices(ctx: Ctx, q: Static<typeof NoticeListQuery>) {
  const { page, size, offset } = pageOf({ page: q.page, size: q.size });
  const { start, end } = parseRange(q);
  const keyword = q.keyword?.trim();
  const { rows, total } = await readNotices(
    ctx.db,
    { keyword: keyword || undefined, status: q.status, start, end },
    offset,
    size,
  );
  return { list: rows.map(noticeView), total, page, size };
}

/** Visible text or an image: an editor's empty `<p></p>` is not content. */
const hasContent = (html: string) => /<img\s/i.test(html) || html.replace(/<[^>]*>|&nbsp;|\s/g, '') !== '';

/** A notice's fields, checked; `pinned` keeps `pinnedBefore` when the call leaves it out. */
function noticeValues(input: Static<typeof NoticeOptBody>, pinnedBefore = false): NoticeValues {
  const title = (input.title ?? '').trim();
  if (!title) throw badInput('请填写标题');
  const content = sanitizeRichText(input.content ?? '');
  if (!hasContent(content)) throw badInput(ContentMessages.emptyContent);
  return { title, content, pinned: input.pinned ?? pinnedBefore };
}

/** A conditional write's answer as updateFromFirst wants it: something when a row changed. */
const changedRow = (ok: boolean) => (ok ? true : undefined);

/** notice/opt: create, update (not while published), publish, offline, delete (not while published). */
export async function noticeOpt(ctx: Ctx, actor: Actor, input: Static<typeof NoticeOptBody>) {
  const by = actor.username;
  if (input.action === 'create') {
    if (input.id !== undefined) throw badInput('新增公告不能带公告ID');
    const values = noticeValues(input);
    return managerAction(ctx, actor, async ({ trx, now }) => {
      const id = await insertNotice(trx, values, by, now);
      if (input.publish) await moveNotice(trx, id, 0, 1, by, now);
      const row = (await findNotice(trx, id))!;
      return {
        result: noticeView(row),
        log: {
          code: 'notice:opt',
          target: `notice#${id}`,
          summary: `新增公告 #${id}「${values.title}」${values.pinned ? '（置顶）' : ''}${input.publish ? '并发布' : '（草稿）'}`,
        },
      };
    });
  }
  if (input.id === undefined) throw badInput('请指定公告ID');
  const id = input.id;
  const action = input.action;
  // Checked before the transaction (a refusal costs no lock); pinned is settled against the row below.
  if (action === 'update') noticeValues(input);
  return managerAction(ctx, actor, async ({ trx, now }) => {
    const old = await findNotice(trx, id);
    if (!old) throw notFound(ContentMessages.noticeNotFound);
    const label = `#${id}「${old.title}」`;
    let summary: string;
    if (action === 'update') {
      const v = noticeValues(input, Number(old.pinned) === 1);
      if (input.updatedAt !== undefined && Number(old.updated_at) !== input.updatedAt)
        throw conflict(ContentMessages.noticeChanged);
      const moved = await updateFromFirst(NOTICE_EDITABLE, (from) =>
        updateNotice(trx, id, from, v, by, now, input.updatedAt).then(changedRow),
      );
      const left = moved?.from;
      if (left === undefined)
        throw conflict(
          noticeEditable(Number(old.status)) ? ContentMessages.noticeChanged : ContentMessages.editPublished,
        );
      if (input.publish) await moveNotice(trx, id, left, 1, by, now);
      summary =
        `编辑公告 ${label}` +
        changeList(
          [
            changed('标题', old.title, v.title),
            old.content !== v.content && '内容已修改',
            changed('置顶', Number(old.pinned) === 1 ? '是' : '否', v.pinned ? '是' : '否'),
          ],
          '（无变化）',
        ) +
        (input.publish ? '，并发布' : '');
    } else if (action === 'delete') {
      if (!(await updateFromFirst(NOTICE_EDITABLE, (from) => deleteNotice(trx, id, from).then(changedRow))))
        throw conflict(ContentMessages.deletePublished);
      summary = `删除公告 ${label}（${NoticeStatus.label(Number(old.status))}）`;
    } else {
      const t = NoticeActions[action];
      if (!(await updateFromFirst(t.from, (from) => moveNotice(trx, id, from, t.to, by, now).then(changedRow))))
        throw conflict(action === 'publish' ? ContentMessages.publishPublished : ContentMessages.offlineNotPublished);
      summary = `${t.label}公告 ${label}`;
    }
    const row = await findNotice(trx, id);
    return { result: row ? noticeView(row) : null, log: { code: 'notice:opt', target: `notice#${id}`, summary } };
  });
}

function protocolIdOf(id: number): ProtocolId {
  if (!isProtocolId(id)) throw badInput(ContentMessages.protocolUnknown);
  return id;
}

/** A text; one never saved answers its default title, empty content and updatedAt null. */
export async function getProtocol(ctx: Ctx, rawId: number) {
  const id = protocolIdOf(rawId);
  const row = await findProtocol(ctx.db, id);
  if (!row) return { id, title: ProtocolTitles[id], content: '', updatedAt: null, updatedBy: '' };
  return { id, title: row.title, content: row.content, updatedAt: Number(row.updated_at), updatedBy: row.updated_by };
}

/** Saves a text; with `updatedAt` (what the editor loaded) a save over a newer one is refused. */
export async function saveProtocol(ctx: Ctx, actor: Actor, input: Static<typeof ProtocolBody>) {
  const id = protocolIdOf(input.id);
  const title = input.title.trim();
  if (!title) throw badInput('请填写标题');
  const content = sanitizeRichText(input.content);
  await managerAction(ctx, actor, async ({ trx, now }) => {
    const old = await findProtocol(trx, id);
    const row = { id, title, content, updated_at: now, updated_by: actor.username.slice(0, 64) };
    const expected = input.updatedAt === 0 ? null : input.updatedAt;
    if (!(await writeProtocol(trx, row, expected))) throw conflict(ContentMessages.protocolChanged);
    return {
      result: null,
      log: {
        code: id === 6 ? 'intro:update' : 'play:update',
        target: `protocol#${id}`,
        summary:
          `修改${ProtocolTitles[id]}` +
          changeList(
            [
              changed('标题', old?.title ?? ProtocolTitles[id], title),
              (old?.content ?? '') !== content && '内容已修改',
            ],
            '（无变化）',
          ),
      },
    };
  });
  return getProtocol(ctx, id);
}
