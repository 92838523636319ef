import type { ListMembersApiResponse } from '../../services/generated/api';

export type MemberRow = ListMembersApiResponse['list'][number];
