import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';
import type { ChallengeUser } from './fragments';

export interface ChallengeComment {
  id: string;
  text: string;
  author: ChallengeUser;
  createdAt: string;
  /** Its author, or staff. */
  canDelete: boolean;
}

export const ChallengeCommentFields: TypedDocumentNode<ChallengeComment> = gql`
  fragment ChallengeCommentFields on ChallengeComment {
    id
    text
    author {
      id
      username
      displayName
      avatar
    }
    createdAt
    canDelete
  }
`;

export interface ChallengeCommentsQuery {
  getChallengeComments: {
    status: ResponseStatus;
    comments: ChallengeComment[] | null;
    pagination: { currentPage: number; totalPages: number; totalCount: number } | null;
  };
}

export interface ChallengeCommentsVariables {
  slug: string;
  page: number;
  itemsPerPage: number;
}

/** A page of a challenge's comments, newest first. */
export const ChallengeCommentsDocument: TypedDocumentNode<
  ChallengeCommentsQuery,
  ChallengeCommentsVariables
> = gql`
  query ChallengeComments($slug: String!, $page: Int, $itemsPerPage: Int) {
    getChallengeComments(input: { slug: $slug, page: $page, itemsPerPage: $itemsPerPage }) {
      status {
        success
        identifier
        message
      }
      comments {
        ...ChallengeCommentFields
      }
      pagination {
        currentPage
        totalPages
        totalCount
      }
    }
  }
  ${ChallengeCommentFields}
`;

export interface AddChallengeCommentMutation {
  addChallengeComment: { status: ResponseStatus; comment: ChallengeComment | null } | null;
}

export const AddChallengeCommentDocument: TypedDocumentNode<
  AddChallengeCommentMutation,
  { slug: string; text: string }
> = gql`
  mutation AddChallengeComment($slug: String!, $text: String!) {
    addChallengeComment(input: { slug: $slug, text: $text }) {
      status {
        success
        identifier
        message
      }
      comment {
        ...ChallengeCommentFields
      }
    }
  }
  ${ChallengeCommentFields}
`;

export interface DeleteChallengeCommentMutation {
  deleteChallengeComment: { status: ResponseStatus } | null;
}

export const DeleteChallengeCommentDocument: TypedDocumentNode<
  DeleteChallengeCommentMutation,
  { id: string }
> = gql`
  mutation DeleteChallengeComment($id: ID!) {
    deleteChallengeComment(input: { id: $id }) {
      status {
        success
        identifier
        message
      }
    }
  }
`;
