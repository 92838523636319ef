/** The platform's assets and the number of decimal places each is kept in (DOMAIN.md §1). */
export const Assets = ['USDT', 'LZ', 'ENERGY'] as const;
export type Asset = (typeof Assets)[number];

export const AssetDecimals: Record<Asset, number> = { USDT: 6, LZ: 4, ENERGY: 2 };
/** Places shown in tables: enough for normal amounts, the full precision on hover. */
export const AssetDisplayPlaces: Record<Asset, number> = { USDT: 2, LZ: 4, ENERGY: 2 };

export const assetDecimals = (asset: Asset): number => AssetDecimals[asset];
export const isAsset = (x: unknown): x is Asset => typeof x === 'string' && (Assets as readonly string[]).includes(x);
