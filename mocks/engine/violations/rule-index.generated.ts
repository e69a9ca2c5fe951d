/**
 * GENERATED from contract/rules.json by mocks/engine/violations/rule-index.ts. Do not edit: run
 * `npx tsx mocks/engine/violations/rule-index.ts`.
 */
import type { RuleIndex } from './rule-index.ts';

export const RULE_INDEX: RuleIndex = {
  "getAgent": {
    "from": "AGENT-DETAIL-QUERY-PARAMS",
    "to": "AGENT-DETAIL-QUERY-PARAMS"
  },
  "getEngagement": {
    "from": "ANALYTICS-WINDOW-NARROWER-NOT-MORE",
    "platforms": "ENG-QUERY-PARAMS",
    "to": "ANALYTICS-WINDOW-NARROWER-NOT-MORE"
  },
  "getSentimentByDay": {
    "from": "SENT-DAY-QUERY-PARAMS",
    "to": "SENT-DAY-QUERY-PARAMS"
  },
  "getSentimentByTag": {
    "from": "SENT-TAG-QUERY-PARAMS",
    "to": "SENT-TAG-QUERY-PARAMS"
  },
  "getTagAnalytics": {
    "from": "TAGS-QUERY-PARAMS",
    "limit": "TAGS-QUERY-PARAMS",
    "offset": "TAGS-QUERY-PARAMS",
    "respondedOnly": "TAGS-QUERY-PARAMS",
    "search": "TAGS-QUERY-PARAMS",
    "tagBreakdown": "TAGS-LIMIT-BOUNDS-ROWS",
    "to": "TAGS-QUERY-PARAMS",
    "volumeByTag": "TAGS-LIMIT-BOUNDS-ROWS"
  },
  "getTagVolume": {
    "from": "VOLUME-QUERY-PARAMS",
    "respondedOnly": "VOLUME-QUERY-PARAMS",
    "tagIds": "VOLUME-QUERY-PARAMS",
    "to": "VOLUME-QUERY-PARAMS",
    "topTagsLimit": "VOLUME-QUERY-PARAMS"
  },
  "ingestRecords": {
    "authorId": "ING-RECORD-AUTHORID-REQUIRED",
    "authorName": "ING-RECORD-AUTHORNAME-REQUIRED",
    "body": "ING-RECORD-BODY-REQUIRED",
    "channelId": "ING-CHANNEL-OPTIONAL-STRINGS",
    "channelName": "ING-CHANNEL-OPTIONAL-STRINGS",
    "createdAt": "ING-RECORD-CREATEDAT-REQUIRED",
    "customFields": "ING-RECORD-OPTIONAL-FIELDS",
    "externalId": "ING-RECORD-EXTERNALID-REQUIRED",
    "parentExternalId": "ING-RECORD-OPTIONAL-FIELDS",
    "platform": "ING-PLATFORM-ENUM",
    "processingLevel": "ING-PROCESSING-LEVEL-ENUM",
    "recordType": "ING-RECORD-RECORDTYPE-REQUIRED",
    "records": "ING-RECORDS-RANGE",
    "score": "ING-RECORD-SCORE-RANGE",
    "serverId": "ING-SERVERID-REQUIRED",
    "serverName": "ING-SERVERNAME-REQUIRED",
    "source": "ING-SOURCE-SYSTEM-REQUIRED",
    "sourceId": "ING-SOURCE-SYSTEM-REQUIRED",
    "system": "ING-SOURCE-SYSTEM-REQUIRED",
    "threadExternalId": "ING-RECORD-OPTIONAL-FIELDS",
    "title": "ING-RECORD-OPTIONAL-FIELDS",
    "url": "ING-RECORD-URL-ABSOLUTE"
  },
  "listActions": {
    "actionId": "LIST-NO-PAGE-INPUT",
    "createdAt": "LIST-SORTBY-VALUES",
    "data": "LIST-PAGESIZE-DEFAULT-50",
    "filter": "LIST-FULLFILTER-WITH-FILTER-400",
    "filterJson": "LIST-FULLFILTER-WITH-FILTER-400",
    "from": "LIST-FROM-ISO-8601",
    "fullFilter": "LIST-FULLFILTER-MAX-LENGTH",
    "pageSize": "LIST-PAGESIZE-RANGE",
    "sortBy": "LIST-SORTBY-VALUES",
    "to": "LIST-FROM-ISO-8601",
    "updatedAt": "LIST-SORTBY-VALUES"
  },
  "listAgents": {
    "from": "AGENT-LIST-WINDOW-DATE-RULES",
    "to": "AGENT-LIST-WINDOW-DATE-RULES"
  },
  "listQueues": {
    "from": "QUEUE-QUERY-PARAMS",
    "to": "QUEUE-QUERY-PARAMS"
  },
  "searchConversations": {
    "currentPage": "SEARCH-PAGE-DEFAULT-1",
    "data": "SEARCH-PAGESIZE-DEFAULT-50",
    "filter": "SEARCH-FILTER-ALL-TERMS",
    "page": "SEARCH-PAGE-RANGE",
    "pageSize": "SEARCH-PAGESIZE-RANGE",
    "totalRecords": "SEARCH-TOTAL-CAPPED",
    "totalRecordsCapped": "SEARCH-TOTAL-CAPPED"
  },
  "submitModerationBatch": {
    "advertiserId": "MOD-ADVERTISERID-LENGTH",
    "advertiserName": "MOD-ADVERTISERNAME-LENGTH",
    "arLens": "MOD-OPTIONAL-TYPES",
    "attachment": "MOD-ATTACHMENT-SHAPE",
    "brandName": "MOD-BRANDNAME-LENGTH",
    "callToAction": "MOD-CALLTOACTION-ENUM",
    "campaignId": "MOD-CAMPAIGNID-LENGTH",
    "cases": "MOD-BATCH-SIZE-RANGE",
    "code": "ERR-MODERATION-CODE-KIND",
    "copy": "MOD-COPY-LENGTH",
    "destinationUrl": "MOD-ATTACHMENT-SHAPE",
    "discoverTile": "MOD-OPTIONAL-TYPES",
    "displayName": "MOD-PUBLICPROFILE-SHAPE",
    "externalId": "MOD-EXTERNALID-LENGTH",
    "format": "MOD-OPTIONAL-TYPES",
    "headline": "MOD-HEADLINE-LENGTH",
    "invalidFields": "MOCK-MODERATION-INVALID-422",
    "language": "MOD-LANGUAGE-LENGTH",
    "logoUrl": "MOD-PUBLICPROFILE-SHAPE",
    "market": "MOD-MARKET-LENGTH",
    "media": "MOD-MEDIA-COUNT",
    "missingFields": "MOCK-MODERATION-INCOMPLETE-400",
    "partnershipAd": "MOD-OPTIONAL-TYPES",
    "placement": "MOD-PLACEMENT-LENGTH",
    "position": "MOD-MEDIA-ITEM",
    "providerMetadata": "MOD-OPTIONAL-TYPES",
    "publicProfile": "MOD-PUBLICPROFILE-SHAPE",
    "rejected": "MOD-REQUIRED-FIELDS",
    "sourceAdId": "MOD-SOURCEADID-LENGTH",
    "sourcePlatform": "MOD-SOURCEPLATFORM-LENGTH",
    "sourceSystem": "MOD-SOURCESYSTEM-LENGTH",
    "submittedAt": "MOD-OPTIONAL-TYPES",
    "targeting.ageMax": "MOD-TARGETING-AGE",
    "targeting.ageMin": "MOD-TARGETING-AGE",
    "targeting.geos": "MOD-TARGETING-GEOS-RANGE",
    "targeting.languages": "MOD-TARGETING-LANGUAGES-RANGE",
    "title": "MOD-TITLE-LENGTH",
    "type": "MOD-MEDIA-ITEM",
    "url": "MOD-MEDIA-ITEM",
    "verified": "MOD-PUBLICPROFILE-SHAPE"
  },
  "submitModerationCase": {
    "accepted": "MOD-VALIDATED-BEFORE-ENQUEUE",
    "advertiserId": "MOD-ADVERTISERID-LENGTH",
    "advertiserName": "MOD-ADVERTISERNAME-LENGTH",
    "arLens": "MOD-OPTIONAL-TYPES",
    "attachment": "MOD-ATTACHMENT-SHAPE",
    "brandName": "MOD-BRANDNAME-LENGTH",
    "callToAction": "MOD-CALLTOACTION-ENUM",
    "campaignId": "MOD-CAMPAIGNID-LENGTH",
    "code": "ERR-MODERATION-CODE-KIND",
    "copy": "MOD-COPY-LENGTH",
    "destinationUrl": "MOD-ATTACHMENT-SHAPE",
    "discoverTile": "MOD-OPTIONAL-TYPES",
    "displayName": "MOD-PUBLICPROFILE-SHAPE",
    "duplicate": "MOD-VALIDATED-BEFORE-ENQUEUE",
    "externalId": "MOD-EXTERNALID-LENGTH",
    "format": "MOD-OPTIONAL-TYPES",
    "headline": "MOD-HEADLINE-LENGTH",
    "invalidFields": "MOCK-MODERATION-INVALID-422",
    "language": "MOD-LANGUAGE-LENGTH",
    "logoUrl": "MOD-PUBLICPROFILE-SHAPE",
    "market": "MOD-MARKET-LENGTH",
    "media": "MOD-MEDIA-COUNT",
    "missingFields": "MOCK-MODERATION-INCOMPLETE-400",
    "partnershipAd": "MOD-OPTIONAL-TYPES",
    "placement": "MOD-PLACEMENT-LENGTH",
    "position": "MOD-MEDIA-ITEM",
    "providerMetadata": "MOD-OPTIONAL-TYPES",
    "publicProfile": "MOD-PUBLICPROFILE-SHAPE",
    "rejected": "MOD-REQUIRED-FIELDS",
    "sourceAdId": "MOD-SOURCEADID-LENGTH",
    "sourcePlatform": "MOD-SOURCEPLATFORM-LENGTH",
    "sourceSystem": "MOD-SOURCESYSTEM-LENGTH",
    "submittedAt": "MOD-OPTIONAL-TYPES",
    "targeting.ageMax": "MOD-TARGETING-AGE",
    "targeting.ageMin": "MOD-TARGETING-AGE",
    "targeting.geos": "MOD-TARGETING-GEOS-RANGE",
    "targeting.languages": "MOD-TARGETING-LANGUAGES-RANGE",
    "title": "MOD-TITLE-LENGTH",
    "type": "MOD-MEDIA-ITEM",
    "url": "MOD-MEDIA-ITEM",
    "verified": "MOD-PUBLICPROFILE-SHAPE"
  },
  "updateCustomFields": {
    "confidence": "CF-PATCH-CONFIDENCE-RANGE",
    "fieldErrors": "CF-PATCH-TYPE-MATCH-422",
    "fieldName": "CF-PATCH-FIELDNAME-REQUIRED",
    "fields": "CF-PATCH-FIELDS-MIN-1",
    "rationale": "CF-PATCH-RATIONALE-STRING",
    "value": "CF-PATCH-VALUE-REQUIRED"
  }
};
