/**
 * The login call, made with the shared baseQuery (same timeout, envelope and error messages; login
 * never raises the loading overlay) but without going through the generated endpoints module:
 * that module grows with every page's endpoints and would all be downloaded by the login route.
 * Everything else keeps using the generated hooks (useLogoutMutation, useGetMenuQuery, …).
 */
import type { ThunkAction, UnknownAction } from '@reduxjs/toolkit';
import { baseQuery, LOGIN_PATH, type ApiError } from './http';
import type { LoginApiArg, LoginApiResponse, LoginWithCodeApiArg } from './generated/auth';

export const CODE_PATH = `${LOGIN_PATH}/totp`;

/**
 * The password step (LOGIN_PATH) or, for a manager with an authenticator, the code step (CODE_PATH):
 * resolves with {token, username} or {challenge, username}; rejects with an ApiError {code, msg}.
 */
export function requestLogin(
  body: LoginApiArg['body'] | LoginWithCodeApiArg['body'],
  url = LOGIN_PATH,
): ThunkAction<Promise<LoginApiResponse>, unknown, unknown, UnknownAction> {
  return async (dispatch, getState) => {
    const controller = new AbortController();
    const result = await baseQuery(
      { url, method: 'POST', body },
      {
        dispatch,
        getState,
        signal: controller.signal,
        abort: () => controller.abort(),
        extra: undefined,
        endpoint: 'login',
        type: 'mutation',
      },
      {},
    );
    if (result.error) throw result.error as ApiError;
    return result.data as LoginApiResponse;
  };
}
