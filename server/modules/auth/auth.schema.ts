import { Type } from '@sinclair/typebox';
import { Ok, OkNull } from '../../http/schemas';

export const LoginBody = Type.Object(
  {
    username: Type.String({ title: '用户名', minLength: 1, maxLength: 64 }),
    password: Type.String({ title: '密码', minLength: 1, maxLength: 128 }),
  },
  { additionalProperties: false },
);

export const LoginResult = Ok(Type.Object({ token: Type.String(), username: Type.String() }));

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
