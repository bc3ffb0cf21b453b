import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';
import {
  PUBLIC_CHALLENGE_SUMMARY_SELECTION,
  type PublicChallengeSummary,
} from '../../challenge/graphql/publicFragments';

export type ProfileListField =
  'runningChallenges' | 'completedChallenges' | 'uploadedVideos' | 'respectedVideos';

type Lists = Partial<Record<ProfileListField, PublicChallengeSummary[]>> &
  Partial<Record<`${ProfileListField}Count`, number>>;

export interface ProfileListsQuery {
  getUserProfile: {
    status: ResponseStatus;
    // No id on purpose: the lists differ with showPrivate, so they stay under their own query.
    profile: ({ showsPrivate: boolean } & Lists) | null;
  } | null;
}

export interface ProfileListsVariables {
  username: string;
  showPrivate: boolean;
  page: number;
  itemsPerPage: number;
  running: boolean;
  completed: boolean;
  uploaded: boolean;
  respected: boolean;
}

/**
 * One page of one of a profile's four lists (the flags pick which), with its count. The
 * challenge fields are inlined as text rather than spread: the gateway's depth limit counts the
 * spread.
 */
export const ProfileListsDocument: TypedDocumentNode<ProfileListsQuery, ProfileListsVariables> =
  gql`
    query ProfileLists(
      $username: String!
      $showPrivate: Boolean
      $page: Int
      $itemsPerPage: Int
      $running: Boolean!
      $completed: Boolean!
      $uploaded: Boolean!
      $respected: Boolean!
    ) {
      getUserProfile(username: $username, showPrivate: $showPrivate) {
        status {
          success
          identifier
          message
        }
        profile {
          showsPrivate
          runningChallengesCount @include(if: $running)
          runningChallenges(page: $page, itemsPerPage: $itemsPerPage) @include(if: $running) {
            ${PUBLIC_CHALLENGE_SUMMARY_SELECTION}
          }
          completedChallengesCount @include(if: $completed)
          completedChallenges(page: $page, itemsPerPage: $itemsPerPage) @include(if: $completed) {
            ${PUBLIC_CHALLENGE_SUMMARY_SELECTION}
          }
          uploadedVideosCount @include(if: $uploaded)
          uploadedVideos(page: $page, itemsPerPage: $itemsPerPage) @include(if: $uploaded) {
            ${PUBLIC_CHALLENGE_SUMMARY_SELECTION}
          }
          respectedVideosCount @include(if: $respected)
          respectedVideos(page: $page, itemsPerPage: $itemsPerPage) @include(if: $respected) {
            ${PUBLIC_CHALLENGE_SUMMARY_SELECTION}
          }
        }
      }
    }
  `;
