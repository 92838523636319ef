/**
 * The menu entry name → icon table of SPEC.md §2. Icons are imported one file each
 * (`@mui/icons-material/X`), never through the package barrel, so only these few end up in the
 * layout chunk.
 */
import type SvgIcon from '@mui/material/SvgIcon';
import AccountBalanceWallet from '@mui/icons-material/AccountBalanceWallet';
import Apps from '@mui/icons-material/Apps';
import BarChart from '@mui/icons-material/BarChart';
import Bolt from '@mui/icons-material/Bolt';
import Campaign from '@mui/icons-material/Campaign';
import Description from '@mui/icons-material/Description';
import People from '@mui/icons-material/People';
import ReceiptLong from '@mui/icons-material/ReceiptLong';
import Savings from '@mui/icons-material/Savings';
import Settings from '@mui/icons-material/Settings';
import SwapHoriz from '@mui/icons-material/SwapHoriz';
import Tune from '@mui/icons-material/Tune';
import VpnKey from '@mui/icons-material/VpnKey';
import Lock from '@mui/icons-material/Lock';

export type MenuIconComponent = typeof SvgIcon;

export const menuIconTable: Readonly<Record<string, MenuIconComponent>> = {
  systemLayout: Settings,
  memberLayout: People,
  passLayout: VpnKey,
  statLayout: BarChart,
  withdrawLayout: AccountBalanceWallet,
  depositLayout: Savings,
  descLayout: Description,
  transferLayout: SwapHoriz,
  billLayout: ReceiptLong,
  pledgeLayout: Lock,
  energyLayout: Bolt,
  noticeLayout: Campaign,
  settingLayout: Tune,
};

/** Any name outside the table gets this one. */
export const DefaultMenuIcon: MenuIconComponent = Apps;

export function menuIconFor(name: string): MenuIconComponent {
  return Object.prototype.hasOwnProperty.call(menuIconTable, name) ? menuIconTable[name] : DefaultMenuIcon;
}
