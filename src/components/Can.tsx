/**
 * Renders its children only when the manager holds the code (or any of the codes):
 * `<Can code="manager:create"><Button>新增</Button></Can>`. For per-row actions inside columns, call
 * usePermissions() once in the page and use its `can` in renderCell.
 */
import type { ReactNode } from 'react';
import { useCan } from './useCan';

export interface CanProps {
  code: string | readonly string[];
  children: ReactNode;
  /** Shown instead when the code is missing (default nothing). */
  fallback?: ReactNode;
}

export function Can({ code, children, fallback = null }: CanProps) {
  return <>{useCan(code) ? children : fallback}</>;
}

export default Can;
