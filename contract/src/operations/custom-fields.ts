/** Reading and writing custom field values (sections 4.3, 4.4). */
import { str } from '../schema.ts';
import { bodyTransportErrors, err, type Located, unreadable } from './shared.ts';

export const customFieldOperations: readonly Located[] = [
  {
    method: 'get',
    path: '/v0/actions/{actionId}/custom-fields',
    operationId: 'getCustomFields',
    summary: 'Read the custom field values of an action',
    description: 'Registered custom fields with their stored values and provenance.',
    tag: 'Custom fields',
    scope: 'read',
    parameters: [
      {
        name: 'actionId',
        in: 'path',
        description: 'Action identifier.',
        schema: str({ minLength: 1 }),
        examples: { found: '1187533000000001195', notFound: '9007199254740993000' },
      },
    ],
    success: {
      status: 200,
      description: 'Custom field values.',
      schema: 'CustomFieldsResponse',
      examples: {
        found: {
          actionId: '1187533000000001195',
          fields: [
            {
              fieldName: 'order_number',
              displayName: 'Order number',
              fieldType: 'text',
              value: 'A-100234',
              provenance: {
                origin: 'api',
                confidence: 0.9,
                rationale: 'Read from the receipt',
                updatedAt: '2026-11-19T15:20:45.000Z',
              },
            },
            { fieldName: 'refund_amount', displayName: 'Refund amount', fieldType: 'number', value: 129.0 },
          ],
        },
      },
    },
    errors: {
      400: unreadable('CustomFieldErrorBody', false),
      404: {
        description: 'No action with this id in the key’s organization.',
        schema: 'CustomFieldErrorBody',
        examples: { notFound: err('Action 9007199254740993000 not found') },
      },
    },
  },
  {
    method: 'patch',
    path: '/v0/actions/{actionId}/custom-fields',
    operationId: 'updateCustomFields',
    summary: 'Write custom field values on an action',
    description:
      'Values must match the registered field types; unknown field names and wrong types give 422 with fieldErrors.',
    tag: 'Custom fields',
    scope: 'write',
    parameters: [
      {
        name: 'actionId',
        in: 'path',
        description: 'Action identifier.',
        schema: str({ minLength: 1 }),
        examples: {
          updated: '1187533000000001195',
          wrongType: '1187533000000001195',
          notFound: '9007199254740993000',
        },
      },
    ],
    body: {
      schema: 'CustomFieldsUpdateRequest',
      description: 'At least one field value.',
      examples: {
        updated: {
          fields: [
            {
              fieldName: 'order_number',
              value: 'A-100235',
              confidence: 0.9,
              rationale: 'Corrected from the invoice',
            },
          ],
        },
        wrongType: { fields: [{ fieldName: 'refund_amount', value: 'a lot' }] },
        notFound: { fields: [{ fieldName: 'order_number', value: 'A-1' }] },
      },
    },
    success: {
      status: 200,
      description: 'The values written.',
      schema: 'CustomFieldsUpdateResponse',
      examples: {
        updated: {
          actionId: '1187533000000001195',
          updated: [{ fieldName: 'order_number', value: 'A-100235' }],
        },
      },
    },
    errors: {
      404: {
        description: 'No action with this id in the key’s organization.',
        schema: 'CustomFieldErrorBody',
        examples: { notFound: err('Action 9007199254740993000 not found') },
      },
      400: unreadable('CustomFieldErrorBody', true),
      422: {
        description: 'Validation failed; fieldErrors maps each field name to its message.',
        schema: 'CustomFieldErrorBody',
        examples: {
          wrongType: {
            success: false,
            error: 'Custom field validation failed',
            fieldErrors: { refund_amount: 'refund_amount is a number field; got a string' },
          },
        },
      },
      ...bodyTransportErrors('CustomFieldErrorBody'),
    },
  },
];
