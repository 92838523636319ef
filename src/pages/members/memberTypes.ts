import type { ListMembersApiResponse } from '../../services/generated/member';

export type MemberRow = ListMembersApiResponse['list'][number];
