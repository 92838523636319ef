/**
 * The one RTK Query api (SPEC.md §7–§8). Endpoints are generated into ./generated/<tag>.ts from the
 * contract, one file per OpenAPI tag, and get their cache tags in the per-module files beside this
 * one (services/<module>.ts, through the helpers of ./tags.ts). Its baseQuery is ./http's.
 *
 * Loaded with the shell, never by the login route: importing this module hands the api to the store
 * (src/store/lateApi.ts), which adds its reducer and middleware then. The login route downloads
 * neither RTK Query nor React-Redux's hooks for it (docs/performance.md, the /login budget).
 */
import { createApi, setupListeners } from '@reduxjs/toolkit/query/react';
import { apiLoaded } from '../store/lateApi';
import { baseQuery } from './http';

export const baseApi = createApi({
  reducerPath: 'api',
  baseQuery,
  // No tag types here: each module's services/<module>.ts adds its own (enhanceEndpoints addTagTypes).
  tagTypes: [],
  endpoints: () => ({}),
});

apiLoaded({ api: baseApi, setupListeners });
