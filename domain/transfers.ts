import type { Asset } from './assets';

/** Assets members may transfer to each other (ENERGY is not transferable). */
export const TransferAssets = ['USDT', 'LZ'] as const satisfies readonly Asset[];
export type TransferAsset = (typeof TransferAssets)[number];

/**
 * Transfer fee (docs/decisions.md "Transfers"): 1% of the amount rounded up to the asset's minor
 * unit, paid by the sender on top of the amount (the receiver gets the full amount). Basis points.
 */
export const TRANSFER_FEE_BPS = 100n;

/** Fee of `amount` minor units: ceil(amount × bps / 10000). */
export function transferFee(amount: bigint): bigint {
  return (amount * TRANSFER_FEE_BPS + 9_999n) / 10_000n;
}
