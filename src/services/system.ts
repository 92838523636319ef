/**
 * The system module's endpoints (managers, roles, permissions, operation log) with their cache tags.
 * Pages import their hooks from here, so the tags are in place before the first query runs. Every
 * change also invalidates OpLog: it writes one op-log row.
 *
 * The caller's own codes (useCan) and the menu are usually fetched by the shell before this module is
 * loaded, i.e. before their tags exist; a bind therefore refetches both explicitly (the bound role may
 * be the caller's own).
 *
 * The super manager's reset of another manager's authenticator is an auth endpoint; it changes the
 * managers list (the 身份验证器 column) and writes an op-log row, like the other manager changes.
 */
import { api as authApi } from './generated/auth';
import { api } from './generated/system';
import { invalidates } from './tags';

export const systemApi = api.enhanceEndpoints({
  addTagTypes: ['Manager', 'Role', 'OpLog', 'Permissions', 'Menu'],
  endpoints: {
    listManagers: { providesTags: ['Manager'] },
    saveManager: { invalidatesTags: invalidates(['Manager', 'Role', 'OpLog']) },
    deleteManager: { invalidatesTags: invalidates(['Manager', 'Role', 'OpLog']) },
    listRoles: { providesTags: ['Role'] },
    saveRole: { invalidatesTags: invalidates(['Role', 'Manager', 'OpLog']) },
    deleteRole: { invalidatesTags: invalidates(['Role', 'Manager', 'OpLog']) },
    bindRole: {
      invalidatesTags: invalidates(['Role', 'Permissions', 'Menu', 'OpLog']),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        try {
          await queryFulfilled;
        } catch {
          return; // the store has toasted the failure
        }
        dispatch(api.endpoints.getPermissions.initiate({}, { subscribe: false, forceRefetch: true }));
        dispatch(authApi.endpoints.getMenu.initiate(undefined, { subscribe: false, forceRefetch: true }));
      },
    },
    getPermissions: {
      providesTags: (_r, _e, arg) =>
        arg.roleId === undefined ? ['Permissions'] : [{ type: 'Permissions', id: arg.roleId }],
    },
    listOpLogs: { providesTags: ['OpLog'] },
  },
});

const authEnhanced = authApi.enhanceEndpoints({
  addTagTypes: ['Menu', 'Manager', 'OpLog'],
  endpoints: {
    getMenu: { providesTags: ['Menu'] },
    resetTotp: { invalidatesTags: invalidates(['Manager', 'OpLog']) },
  },
});

export const {
  useListManagersQuery,
  useSaveManagerMutation,
  useDeleteManagerMutation,
  useListRolesQuery,
  useSaveRoleMutation,
  useDeleteRoleMutation,
  useBindRoleMutation,
  useGetPermissionsQuery,
  useListOpLogsQuery,
  useChangePasswordMutation,
} = systemApi;

export const { useResetTotpMutation } = authEnhanced;
