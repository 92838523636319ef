/**
 * The member side of the mall (what the member app would call; used by the demo data, the simulator
 * and the tests): buying a SKU. In one transaction: the product share-locked (on shelf, not deleted),
 * the stock taken by a conditional UPDATE (never below zero, however many buy at once), the payment
 * debited through the ledger (bill 11 商城消费; too little balance refuses the whole purchase), the order
 * written with its snapshot (name, spec, image, unit price). A 种子 product's seed is granted in the
 * same transaction and its order is complete at once (nothing to ship).
 */
import type { Asset } from '../../../domain/assets';
import { BillType } from '../../../domain/bills';
import { OrderStatus, ProductKind, ProductStatus } from '../../../domain/mall';
import { MallMessages, orderNo } from '../../../domain/mallRules';
import { MemberStatus } from '../../../domain/members';
import { AssetCeiling, formatAsset } from '../../../domain/money';
import type { Ctx } from '../../context';
import { countedTransaction } from '../../db/counterMoves';
import { badInput, conflict } from '../../errors';
import { applyChange } from '../ledger/ledger.service';
import { buyerOf } from '../members/members.query';
import { grantSeedIn } from '../seeds/seeds.service';
import { insertOrder, setOrderSeed } from './orders.repository';
import { shareProduct } from './products.repository';
import { productOfSku, skuForSale, takeStock } from './skus.repository';

export interface BuyInput {
  memberId: number;
  skuId: number;
  quantity: number;
  receiver?: { name: string; phone: string; address: string };
}

export async function buyProduct(ctx: Ctx, input: BuyInput, now: number = ctx.clock.now()) {
  const q = input.quantity;
  if (!Number.isInteger(q) || q < 1 || q > 99) throw badInput(MallMessages.badQuantity);
  return countedTransaction(ctx.db, async (trx, counts) => {
    // The product is locked before the SKU is read: an editor changing prices holds the product, so
    // the price, spec and image read after the lock are those of its commit, never the ones before it.
    const productId = await productOfSku(trx, input.skuId);
    if (productId === undefined) throw badInput(MallMessages.offShelf);
    const product = await shareProduct(trx, productId);
    if (!product || product.status !== ProductStatus.is.on) throw conflict(MallMessages.offShelf);
    const sku = await skuForSale(trx, input.skuId);
    if (!sku || sku.deleted) throw conflict(MallMessages.offShelf);
    const seed = product.kind === ProductKind.is.seed;
    const receiver = input.receiver ?? { name: '', phone: '', address: '' };
    if (!seed && (!receiver.name.trim() || !receiver.phone.trim() || !receiver.address.trim()))
      throw badInput(MallMessages.receiverRequired);
    const buyer = await buyerOf(trx, input.memberId);
    if (buyer === undefined) throw badInput(MallMessages.memberMissing);
    if (buyer.status === MemberStatus.is.frozen) throw badInput(MallMessages.memberFrozen);
    const asset = product.asset as Asset;
    const unitPrice = BigInt(sku.price);
    const total = unitPrice * BigInt(q);
    if (total > AssetCeiling[asset]) throw badInput(MallMessages.tooLarge);
    if (!(await takeStock(trx, input.skuId, q))) throw conflict(MallMessages.soldOut);
    const placed = seed ? OrderStatus.is.done : OrderStatus.is.paid;
    const id = await insertOrder(trx, counts, {
      memberId: input.memberId,
      buyer,
      productId: Number(product.id),
      skuId: input.skuId,
      kind: product.kind,
      asset,
      productName: product.name,
      spec: sku.spec,
      image: sku.image || product.cover,
      unitPrice,
      quantity: q,
      total,
      receiverName: receiver.name.trim().slice(0, 20),
      receiverPhone: receiver.phone.trim().slice(0, 20),
      receiverAddress: receiver.address.trim().slice(0, 200),
      status: placed,
      now,
    });
    await applyChange(
      trx,
      {
        memberId: input.memberId,
        asset,
        available: -total,
        type: BillType.mallPurchase,
        ref: { kind: 'order', id },
        remark: `商城消费 #${id}：${product.name}${sku.spec ? `（${sku.spec}）` : ''} × ${q}`.slice(0, 200),
      },
      now,
    );
    let seedId: number | null = null;
    if (seed) {
      const granted = await grantSeedIn(
        trx,
        {
          memberId: input.memberId,
          name: [...product.name].slice(0, 40).join(''),
          source: 1,
          refId: id,
          totalEnergy: BigInt(product.seed_energy) * BigInt(q),
          days: Number(product.seed_days),
        },
        now,
        counts,
      );
      seedId = granted.id;
      await setOrderSeed(trx, id, seedId);
    }
    return { id, orderNo: orderNo(id, now), status: placed, total: formatAsset(total, asset), asset, seedId };
  });
}
