import { Type } from '@sinclair/typebox';
import { RECOVERY_CODE_PATTERN } from '../../../domain/totp';
import { IdParam, Nullable, Ok, OkNull } from '../../http/schemas';

/** Six digits, spaces allowed between them (the service drops them). */
const TOTP_CODE_PATTERN_LOOSE = '^[0-9 ]{6,12}$';

export const LoginBody = Type.Object(
  {
    username: Type.String({ title: '用户名', minLength: 1, maxLength: 64 }),
    password: Type.String({ title: '密码', minLength: 1, maxLength: 128 }),
  },
  { additionalProperties: false },
);

export const LoginResult = Ok(
  Type.Object({
    /** The session; absent when the manager has an authenticator and the code step follows. */
    token: Type.Optional(Type.String()),
    username: Type.String(),
    /** Present instead of token: send it with the code to user/login/totp within 5 minutes. */
    challenge: Type.Optional(Type.String()),
  }),
);

const CodeField = Type.String({ title: '验证码', pattern: TOTP_CODE_PATTERN_LOOSE, maxLength: 12 });
const RecoveryField = Type.String({ title: '恢复码', pattern: RECOVERY_CODE_PATTERN, maxLength: 16 });
/** A current code or one recovery code (exactly one of them). */
const ProofFields = { code: Type.Optional(CodeField), recoveryCode: Type.Optional(RecoveryField) };

export const LoginCodeBody = Type.Object(
  { challenge: Type.String({ title: '登录凭据', minLength: 1, maxLength: 100 }), ...ProofFields },
  { additionalProperties: false },
);
export const LoginCodeResult = Ok(Type.Object({ token: Type.String(), username: Type.String() }));

export const TotpStatusResult = Ok(
  Type.Object({
    available: Type.Boolean({ description: 'TOTP_KEY is set: binding is possible' }),
    bound: Type.Boolean(),
    required: Type.Boolean({ description: "the manager's role asks for an authenticator" }),
    boundAt: Nullable(Type.Integer(), { description: 'epoch ms' }),
    recoveryLeft: Type.Integer({ description: 'unused recovery codes' }),
    stepUpSeconds: Type.Integer({ description: 'how long a code covers money actions' }),
  }),
);
export const TotpSetupResult = Ok(
  Type.Object({
    secret: Type.String({ description: 'base32, for typing into the app by hand' }),
    uri: Type.String({ description: 'otpauth:// URI' }),
    qr: Type.String({ description: 'the URI as a QR code, an SVG data URL' }),
  }),
);
export const TotpEnableBody = Type.Object({ code: CodeField }, { additionalProperties: false });
export const TotpEnableResult = Ok(Type.Object({ recoveryCodes: Type.Array(Type.String()) }));
export const TotpProofBody = Type.Object(ProofFields, { additionalProperties: false });
export const TotpResetBody = Type.Object({ id: IdParam('管理员ID') }, { additionalProperties: false });

export interface MenuEntrySchema {
  id: number;
  title: string;
  name: string;
  layout: string;
  sub: MenuEntrySchema[];
}

export const MenuEntry = Type.Recursive(
  (Self) =>
    Type.Object({
      id: Type.Integer(),
      title: Type.String(),
      name: Type.String({ description: 'icon key (groups) or route tail (pages)' }),
      layout: Type.String({ description: 'route path, the menu index and breadcrumb key' }),
      sub: Type.Array(Self),
    }),
  { $id: 'MenuEntry' },
);

export const MenuResult = Ok(Type.Array(MenuEntry));
export const LogoutResult = OkNull;
