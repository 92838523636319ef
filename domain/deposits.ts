import { defineEnum, defineTransitions, type EnumValue } from './enums';

/** Chains a deposit (and a withdrawal) can travel on. */
export const Chains = ['TRC20', 'ERC20'] as const;
export type Chain = (typeof Chains)[number];
export const isChain = (x: unknown): x is Chain => typeof x === 'string' && (Chains as readonly string[]).includes(x);

/** Address format per chain: TRC20 base58 starting with T, 34 characters; ERC20 0x + 40 hex digits. */
export const ChainAddressPattern: Record<Chain, RegExp> = {
  TRC20: /^T[1-9A-HJ-NP-Za-km-z]{33}$/,
  ERC20: /^0x[0-9a-fA-F]{40}$/,
};
export const isChainAddress = (chain: Chain, address: string): boolean => ChainAddressPattern[chain].test(address);
/** The message for an address that does not fit its chain. */
export const chainAddressMessage = (chain: Chain) =>
  chain === 'TRC20'
    ? '地址格式不正确（TRC20地址以T开头，共34位）'
    : '地址格式不正确（ERC20地址以0x开头，后跟40位十六进制）';

/** Deposit status: 0 待确认, 1 已到账, 2 已驳回. */
export const DepositStatus = defineEnum('状态', {
  pending: [0, '待确认', 'warning'],
  confirmed: [1, '已到账', 'success'],
  rejected: [2, '已驳回', 'error'],
});
export type DepositStatus = EnumValue<typeof DepositStatus>;

/** Manager actions on a deposit, with the states each may start from and where it goes. */
export const DepositActions = defineTransitions(DepositStatus, {
  confirm: { label: '确认到账', from: [0], to: 1 },
  reject: { label: '驳回', from: [0], to: 2 },
});

/** Receiving address status: 1 启用, 0 停用. */
export const DepositAccountStatus = defineEnum('状态', {
  enabled: [1, '启用', 'success'],
  disabled: [0, '停用', 'default'],
});

/** Transaction hash format per chain: TRC20 64 hex digits; ERC20 0x + 64 hex digits. */
export const ChainTxHashPattern: Record<Chain, RegExp> = {
  TRC20: /^[0-9a-fA-F]{64}$/,
  ERC20: /^0x[0-9a-fA-F]{64}$/,
};
export const isChainTxHash = (chain: Chain, hash: string): boolean => ChainTxHashPattern[chain].test(hash);
/** The message for a transaction hash that does not fit its chain. */
export const chainTxHashMessage = (chain: Chain) =>
  chain === 'TRC20'
    ? '交易哈希格式不正确（TRC20交易哈希为64位十六进制）'
    : '交易哈希格式不正确（ERC20交易哈希以0x开头，后跟64位十六进制）';
