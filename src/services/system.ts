/**
 * Cache tags of the system module (managers, roles, permissions, operation log) on top of the
 * generated endpoints. Pages import their hooks from here, so the tags are in place before the first
 * query runs. Every change also invalidates OpLog: it writes one op-log row.
 *
 * The caller's own codes (useCan) and the menu are usually fetched by the shell before this module is
 * loaded, i.e. before their tags exist; a bind therefore refetches both explicitly (the bound role may
 * be the caller's own).
 */
import { api } from './generated/api';

export const systemApi = api.enhanceEndpoints({
  endpoints: {
    listManagers: { providesTags: ['Manager'] },
    saveManager: { invalidatesTags: (_r, error) => (error ? [] : ['Manager', 'Role', 'OpLog']) },
    deleteManager: { invalidatesTags: (_r, error) => (error ? [] : ['Manager', 'Role', 'OpLog']) },
    listRoles: { providesTags: ['Role'] },
    saveRole: { invalidatesTags: (_r, error) => (error ? [] : ['Role', 'Manager', 'OpLog']) },
    deleteRole: { invalidatesTags: (_r, error) => (error ? [] : ['Role', 'Manager', 'OpLog']) },
    bindRole: {
      invalidatesTags: (_r, error) => (error ? [] : ['Role', 'Permissions', 'Menu', 'OpLog']),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        try {
          await queryFulfilled;
        } catch {
          return;
        }
        dispatch(api.endpoints.getPermissions.initiate({}, { subscribe: false, forceRefetch: true }));
        dispatch(api.endpoints.getMenu.initiate(undefined, { subscribe: false, forceRefetch: true }));
      },
    },
    getPermissions: {
      providesTags: (_r, _e, arg) =>
        arg.roleId === undefined ? ['Permissions'] : [{ type: 'Permissions', id: arg.roleId }],
    },
    getMenu: { providesTags: ['Menu'] },
    listOpLogs: { providesTags: ['OpLog'] },
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
