/**
 * The seeds module's endpoints: read-only here. The lists refetch when money (energy) moves elsewhere
 * ('Bill'), e.g. after a match or an adjustment on another page.
 */
import { api } from './generated/seed';
import { providesList } from './tags';

export const seedsApi = api.enhanceEndpoints({
  addTagTypes: ['Seed', 'SeedRelease', 'Bill'],
  endpoints: {
    listSeeds: { providesTags: providesList('Seed', 'Bill') },
    listSeedReleases: { providesTags: providesList('SeedRelease', 'Bill') },
  },
});

export const { useListSeedsQuery, useListSeedReleasesQuery } = seedsApi;
