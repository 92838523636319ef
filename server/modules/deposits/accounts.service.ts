/** Receiving addresses (DOMAIN.md §3 Deposits): the platform's wallets members deposit to. */
import type { Static } from '@sinclair/typebox';
import type { DepositAccountOptBody } from './deposits.schema';
import { chainAddressMessage, DepositAccountStatus, isChainAddress, type Chain } from '../../../domain/deposits';
import type { Actor, Ctx } from '../../context';
import { pageOf } from '../../db/keyset';
import { isUniqueViolation } from '../../db/dialect';
import { AppError, badInput, conflict, notFound } from '../../errors';
import { managerAction } from '../oplog/managerAction';
import { findDepositAccount, findDepositAccounts, type DepositAccountFilter } from './deposits.repository';

export const AccountMessages = {
  notFound: '收款地址不存在',
  idRequired: '收款地址ID不能为空',
  chainRequired: '链不能为空',
  addressRequired: '地址不能为空',
  addressTaken: '该地址已存在',
  alreadyEnabled: '该收款地址已启用',
  alreadyDisabled: '该收款地址已停用',
} as const;

export async function listDepositAccounts(
  ctx: Ctx,
  q: DepositAccountFilter & { page?: number; size?: number; order?: 'asc' | 'desc' },
) {
  const { page, size, offset } = pageOf(q);
  const { rows, total } = await findDepositAccounts(
    ctx.db,
    { chain: q.chain, status: q.status, address: q.address?.trim() || undefined },
    { offset, limit: size, order: q.order ?? 'desc' },
  );
  return {
    list: rows.map((r) => ({
      id: Number(r.id),
      chain: r.chain as Chain,
      address: r.address,
      qrUrl: r.qr_url,
      status: r.status as 0 | 1,
      remark: r.remark,
      createdAt: Number(r.created_at),
      updatedAt: Number(r.updated_at),
    })),
    total,
    page,
    size,
  };
}

export type DepositAccountOptInput = Static<typeof DepositAccountOptBody>;

function checkedAddress(input: DepositAccountOptInput): { chain: Chain; address: string } {
  if (!input.chain) throw badInput(AccountMessages.chainRequired);
  const address = (input.address ?? '').trim();
  if (!address) throw badInput(AccountMessages.addressRequired);
  if (!isChainAddress(input.chain, address)) throw badInput(chainAddressMessage(input.chain));
  return { chain: input.chain, address };
}

export async function depositAccountOpt(ctx: Ctx, actor: Actor, input: DepositAccountOptInput) {
  const now = ctx.clock.now();
  const logged = (id: number, summary: string) => ({
    result: { id },
    log: { code: 'depositAccount:opt', target: `depositAccount#${id}`, summary },
  });
  try {
    if (input.action === 'create') {
      const { chain, address } = checkedAddress(input);
      const status = input.status ?? 1;
      return await managerAction(
        ctx,
        actor,
        async ({ trx }) => {
          const r = await trx
            .insertInto('deposit_account')
            .values({
              chain,
              address,
              qr_url: (input.qrUrl ?? '').trim(),
              status,
              remark: (input.remark ?? '').trim(),
              created_at: now,
              updated_at: now,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          const id = Number(r.id);
          return logged(id, `新增收款地址 ${chain} ${address}（${DepositAccountStatus.label(status)}）`);
        },
        now,
      );
    }
    if (input.id === undefined) throw badInput(AccountMessages.idRequired);
    const id = input.id;
    const checked = input.action === 'update' ? checkedAddress(input) : undefined;
    return await managerAction(
      ctx,
      actor,
      async ({ trx }) => {
        const cur = await findDepositAccount(trx, id);
        if (!cur) throw notFound(AccountMessages.notFound);
        if (input.action === 'delete') {
          const r = await trx.deleteFrom('deposit_account').where('id', '=', id).executeTakeFirst();
          if (Number(r.numDeletedRows) !== 1) throw notFound(AccountMessages.notFound);
          return logged(id, `删除收款地址 ${cur.chain} ${cur.address}`);
        }
        if (input.action === 'update') {
          const set = {
            chain: checked!.chain,
            address: checked!.address,
            qr_url: input.qrUrl === undefined ? cur.qr_url : input.qrUrl.trim(),
            remark: input.remark === undefined ? cur.remark : input.remark.trim(),
            status: input.status ?? cur.status,
            updated_at: now,
          };
          const r = await trx.updateTable('deposit_account').set(set).where('id', '=', id).executeTakeFirst();
          if (Number(r.numUpdatedRows) !== 1) throw notFound(AccountMessages.notFound);
          return logged(id, `编辑收款地址 ${cur.chain} ${cur.address} → ${set.chain} ${set.address}`);
        }
        const status = input.action === 'enable' ? 1 : 0;
        // Conditional: enabling an enabled address (or two managers at once) changes and logs nothing.
        const r = await trx
          .updateTable('deposit_account')
          .set({ status, updated_at: now })
          .where('id', '=', id)
          .where('status', '<>', status)
          .executeTakeFirst();
        if (Number(r.numUpdatedRows) !== 1) {
          if (!(await findDepositAccount(trx, id))) throw notFound(AccountMessages.notFound);
          throw conflict(
            status === DepositAccountStatus.is.enabled
              ? AccountMessages.alreadyEnabled
              : AccountMessages.alreadyDisabled,
          );
        }
        return logged(id, `${DepositAccountStatus.label(status)}收款地址 ${cur.chain} ${cur.address}`);
      },
      now,
    );
  } catch (err) {
    if (!(err instanceof AppError) && isUniqueViolation(err)) throw badInput(AccountMessages.addressTaken);
    throw err;
  }
}
