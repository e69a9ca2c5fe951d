/**
 * GENERATED from contract/openapi.json by src/contract/typegen.ts. Do not edit: run `npm run typegen`.
 */

export interface paths {
    "/v0/action/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List actions in a date window
         * @description Lists actions newest first. Without fullFilter the list defaults to the past seven days and to responded actions. There is no numbered page input: continue by moving timestamp windows and deduplicating on actionId. fullFilter must not be combined with filter or filterJson (400).
         *
         *     Requires a read-scoped key (profiles Reporting, Read and write).
         */
        get: operations["listActions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v0/action/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read one action with its conversation
         * @description The action detail record. Another organization’s action is not found.
         *
         *     Requires a read-scoped key (profiles Reporting, Read and write).
         */
        get: operations["getAction"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v0/actions/{actionId}/custom-fields": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the custom field values of an action
         * @description Registered custom fields with their stored values and provenance.
         *
         *     Requires a read-scoped key (profiles Reporting, Read and write).
         */
        get: operations["getCustomFields"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Write custom field values on an action
         * @description Values must match the registered field types; unknown field names and wrong types give 422 with fieldErrors.
         *
         *     Requires a write-scoped key (profiles Write, Read and write).
         */
        patch: operations["updateCustomFields"];
        trace?: never;
    };
    "/v0/agents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List agents with their metrics
         * @description Agent list entries with metrics and workload for the window.
         *
         *     Requires a read-scoped key (profiles Reporting, Read and write).
         */
        get: operations["listAgents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v0/agents/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read one agent
         * @description Aggregated metrics, current workload and queues of one agent.
         *
         *     Requires a read-scoped key (profiles Reporting, Read and write).
         */
        get: operations["getAgent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v0/queues": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List queues with their metrics
         * @description Queue entries (a null queueId stands for no queue) with metrics and workload for the window.
         *
         *     Requires a read-scoped key (profiles Reporting, Read and write).
         */
        get: operations["listQueues"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v0/analytics/tags": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Tag analytics
         * @description Summary, breakdown and volume per tag, with offset pagination.
         *
         *     Requires a read-scoped key (profiles Reporting, Read and write).
         */
        get: operations["getTagAnalytics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v0/analytics/tags/volume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Tag volume over time
         * @description Volume rows for the top tags or the listed tag ids.
         *
         *     Requires a read-scoped key (profiles Reporting, Read and write).
         */
        get: operations["getTagVolume"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v0/analytics/sentiment": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Sentiment by day
         * @description Daily counts per sentiment label.
         *
         *     Requires a read-scoped key (profiles Reporting, Read and write).
         */
        get: operations["getSentimentByDay"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v0/analytics/sentiment/by-tag": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Sentiment by tag
         * @description Per-tag counts per sentiment label.
         *
         *     Requires a read-scoped key (profiles Reporting, Read and write).
         */
        get: operations["getSentimentByTag"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v0/analytics/engagement": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Engagement analytics
         * @description Messages-per-user percentiles, weekly growth trends and the conversion funnel.
         *
         *     Requires a read-scoped key (profiles Reporting, Read and write).
         */
        get: operations["getEngagement"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v0/conversations/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search conversations
         * @description Numbered pages of conversation search items. When totalRecordsCapped is true the count stopped at a cap and is not exact.
         *
         *     Requires a read-scoped key (profiles Reporting, Read and write).
         */
        get: operations["searchConversations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v0/moderation/cases": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Submit one moderation case
         * @description Accepts one ad for advertising-policy evaluation (asynchronous: 202 acknowledges acceptance, not completion). Requires an organization in ad_policy moderation mode. The whole request is validated before any work is enqueued. An exact resubmission (same externalId, same content) is a duplicate; the same externalId with different content is a 409.
         *
         *     Requires a write-scoped key (profiles Write, Read and write).
         */
        post: operations["submitModerationCase"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v0/moderation/cases/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Submit a batch of moderation cases
         * @description Accepts 1..100 submissions. One result per input, in input order; a conflicting or invalid item is rejected without blocking the valid items.
         *
         *     Requires a write-scoped key (profiles Write, Read and write).
         */
        post: operations["submitModerationBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v0/moderation/cases/{caseId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a moderation case
         * @description Reports only the evaluation of the currently active policy workflow; the decision appears only once analysisStatus is completed.
         *
         *     Requires a read-scoped key (profiles Reporting, Read and write).
         */
        get: operations["getModerationCase"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v0/ingest/records": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ingest normalized records
         * @description Accepts 1..500 records (asynchronous: 202 acknowledges acceptance; processing continues). Record identity is organization, platform, serverId and externalId: a retry with the same externalId updates, never duplicates.
         *
         *     Requires a key with ingestion permission (profile Import).
         */
        post: operations["ingestRecords"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs/json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The OpenAPI document
         * @description Machine-readable REST contract (section 1). Needs no key.
         */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Interactive Swagger UI
         * @description Interactive documentation (section 1). Needs no key.
         */
        get: operations["getSwaggerUi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description A tag with its group (section 2.1). */
        Tag: {
            /** @description Tag value. */
            value: string;
            /** @description Tag group. */
            group: string;
        };
        /** @description Organization-defined custom field names mapped to their values (a dynamic map). */
        CustomFields: {
            [key: string]: unknown;
        };
        /** @description Action summary record (section 2.1): items of the action list. All keys required. */
        ActionSummary: {
            /** @description Action identifier; may exceed 2^53 as a decimal, may have leading zeros. */
            actionId: string;
            /** @description Title. */
            actionTitle: string;
            /** @description Generated summary. */
            actionSummary: string;
            /** @description Current state of the action. */
            status: string;
            /** @description Source platform. */
            platform: string;
            /** @description Source record type. */
            recordType: string | null;
            /** @description Whether the record is public. */
            isPublicPost: boolean;
            /** @description Link to the action in the service. */
            serviceURL: string;
            /** @description Link to the original record; null for private content. */
            sourceURL: string | null;
            /** @description Current queue label. */
            queue: string | null;
            /** @description Original queue label. */
            initialQueue: string | null;
            /** @description Sentiment label. */
            sentiment: string | null;
            /** @description Stored sentiment score. */
            sentimentScore: number | null;
            /** @description Stored moderation value. */
            moderation: string | null;
            /** @description Assigned agent name. */
            assigneeName: string | null;
            /** @description Assigned agent email. */
            assigneeEmail: string | null;
            /** @description Assigned agent identifier. */
            assigneeUserId: string | null;
            /** @description Assigned agent role. */
            assigneeRole: string | null;
            /** @description Customer name. */
            userName: string;
            /** @description Customer platform handle. */
            userUsername: string;
            /** @description Customer identifier. */
            userId: string;
            /** @description Customer email. */
            userEmail: string | null;
            /** @description Follower count, null if unavailable. */
            userFollowerCount: number | null;
            /**
             * Format: date-time
             * @description Creation timestamp.
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description Last update timestamp.
             */
            updatedAt: string | null;
            /**
             * Format: date-time
             * @description First customer message time.
             */
            initialMessageTime: string | null;
            /**
             * Format: date-time
             * @description First agent response time.
             */
            initialResponseTime: string | null;
            /**
             * Format: date-time
             * @description Time closed.
             */
            closeTime: string | null;
            /**
             * Format: date-time
             * @description Time claimed.
             */
            claimTime: string | null;
            /** @description Time to first response. A duration value, not a timestamp: do not parse it as a date. */
            firstResponseTime: string | null;
            /** @description Handle time. A duration value, not a timestamp: do not parse it as a date. */
            handleTime: string | null;
            /** @description Source account or community name. */
            serverName: string;
            /** @description Source channel name. */
            channelName: string;
            /** @description Reported satisfaction score. */
            csatScore: string | null;
            /** @description Satisfaction feedback text. */
            csatFeedback: string | null;
            /** @description Estimated satisfaction. */
            estimatedCSAT: number | null;
            /** @description Message count. */
            totalMessages: number | null;
            /** @description Customer message count. */
            totalUserMessages: number | null;
            /** @description Agent message count. */
            totalAgentMessages: number | null;
            /** @description Tags on the action. */
            tags: components["schemas"]["Tag"][];
            /** @description Tags applied at closure. */
            closingTags: components["schemas"]["Tag"][];
            customFields: components["schemas"]["CustomFields"];
            /** @description Root message body. */
            rootMessageText: string | null;
            /** @description Serialized conversation; filled only when requested (action list with includeFullConversation=true), null otherwise. */
            conversationJson: string | null;
        };
        /** @description Conversation search item (section 2.1): an action summary record plus threadId, easyId and contributors. */
        ConversationSearchItem: components["schemas"]["ActionSummary"] & {
            /** @description Thread identifier. */
            threadId: string;
            /** @description Readable case identifier. */
            easyId: string | null;
            /** @description Contributor summary. */
            contributors: string | null;
        };
        /** @description The customer of an action (section 2.2). */
        ActionUser: {
            /** @description Customer name. */
            name: string;
            /** @description Customer platform handle. */
            username: string;
            /** @description Customer identifier. */
            userId: string;
            /** @description Customer email. */
            email: string | null;
            /** @description Follower count, null if unavailable. */
            followerCount: number | null;
        };
        /** @description The assigned agent of an action (section 2.2); every key may be null. */
        ActionAssignee: {
            name: string | null;
            email: string | null;
            /** @description Agent identifier (a string, preserved exactly). */
            userId: string | null;
            role: string | null;
        };
        /** @description An internal comment on an action (section 2.2). */
        ActionComment: {
            text: string;
            /** @description Native identifier of the comment author. */
            authorNativeId: string;
            authorNativeName: string | null;
        };
        /** @description An item of `messages` (section 2.3). */
        Message: {
            /** @description Message identifier. */
            id: string;
            /**
             * Format: date-time
             * @description Message time.
             */
            timestamp: string;
            /** @description Author display name. */
            author: string;
            /** @description Author identifier. */
            authorId?: string;
            /**
             * @description Who wrote the message.
             * @enum {string}
             */
            authorType: "USER" | "AGENT" | "BOT";
            /** @description Message body. */
            message: string;
            /** @description Attached media. */
            mediaUrls: string[];
        };
        /** @description An item of the threaded `conversation` (section 2.3). */
        ConversationEntry: {
            /** @description Message identifier. */
            id: string;
            /**
             * Format: date-time
             * @description Message time.
             */
            timestamp: string;
            /** @description Author display name. */
            author: string;
            /** @description Author identifier (string, preserved exactly). */
            authorId: string | null;
            /**
             * @description Who wrote the message.
             * @enum {string}
             */
            authorType: "USER" | "AGENT" | "BOT";
            /** @description Message body. */
            message: string;
            /** @description Identifier of the message this one replies to. */
            parentMessageId: string | null;
            /** @description Attached media. */
            mediaUrls: string[];
        };
        /** @description Action detail record (section 2.2): GET /v0/action/{id}. */
        ActionDetail: {
            user: components["schemas"]["ActionUser"];
            /** @description Action identifier; may exceed 2^53 as a decimal, may have leading zeros. */
            actionId: string;
            actionTitle: string;
            actionSummary: string;
            platform: string;
            recordType: string | null;
            isPublicPost: boolean;
            sentiment: string | null;
            sentimentScore: number | null;
            queue: string | null;
            initialQueue: string | null;
            status: string;
            /**
             * Format: date-time
             * @description Creation timestamp.
             */
            createdAt: string;
            serviceURL: string;
            /** @description Link to the original record; null for private content. */
            sourceURL: string | null;
            /**
             * Format: date-time
             * @description Last update timestamp.
             */
            updatedAt: string | null;
            /**
             * Format: date-time
             * @description First customer message time.
             */
            initialMessageTime: string | null;
            /**
             * Format: date-time
             * @description First agent response time.
             */
            initialResponseTime: string | null;
            /**
             * Format: date-time
             * @description Time closed.
             */
            closeTime: string | null;
            /** @description Time to first response. A duration value, not a timestamp: do not parse it as a date. */
            firstResponseTime: string | null;
            /** @description Handle time. A duration value, not a timestamp: do not parse it as a date. */
            handleTime: string | null;
            /**
             * Format: date-time
             * @description Time claimed.
             */
            claimTime: string | null;
            assignee: components["schemas"]["ActionAssignee"];
            serverName: string;
            channelName: string;
            tags: components["schemas"]["Tag"][];
            closingTags: components["schemas"]["Tag"][];
            moderation: string | null;
            comments: components["schemas"]["ActionComment"][];
            messages: components["schemas"]["Message"][];
            /** @description Threaded conversation, when available. */
            conversation?: components["schemas"]["ConversationEntry"][];
            rootMessageText: string | null;
            customFields: components["schemas"]["CustomFields"];
            csatScore: string | null;
            csatFeedback: string | null;
            estimatedCSAT: number | null;
            totalMessages: number | null;
            totalUserMessages: number | null;
            totalAgentMessages: number | null;
        };
        /** @description A custom field value as read (sections 2.4 and 4.3). */
        CustomFieldValue: {
            /** @description Registered custom field name. */
            fieldName: string;
            /** @description Visible label (read only). */
            displayName: string;
            /** @description Registered field type (read only). */
            fieldType: string;
            /** @description Stored value; its JSON type depends on the registered field. */
            value: unknown;
            /** @description Stored origin of the value (read only). */
            provenance?: unknown;
        };
        /** @description A custom field value to write (sections 2.4 and 4.4). */
        CustomFieldWrite: {
            /** @description Registered custom field name. */
            fieldName: string;
            /** @description The value to store; must match the registered field type. */
            value: unknown;
            /** @description Write only. */
            confidence?: number;
            /** @description Write only. */
            rationale?: string;
        };
        /** @description An item of `updated` in the custom-field PATCH answer (section 4.4). */
        CustomFieldUpdated: {
            fieldName: string;
            /** @description The stored value. */
            value: unknown;
        };
        /** @description Aggregated metrics, all numbers (section 2.5). Units of the response and handle averages are defined by a separate metrics reference that the spec does not include. */
        Metrics: {
            totalActions: number;
            totalMessages: number;
            totalAgentMessages: number;
            totalUserMessages: number;
            averageCsat: number;
            averageResponseTime: number;
            averageHandleTime: number;
            averageEstimatedCsat: number;
            averageResolutionQuality: number;
            averageSentimentChange: number;
            averageRubricScore: number;
        };
        /** @description Metrics of an agent list entry (section 2.5). */
        AgentMetrics: components["schemas"]["Metrics"] & {
            totalActionsWithResponse?: number;
        };
        /** @description Metrics of a queue entry (section 2.5). */
        QueueMetrics: components["schemas"]["Metrics"] & {
            averageSentimentScore?: number;
        };
        /** @description Counts of actions in each workload state (section 2.5); not a transition model. */
        Workload: {
            active: number;
            closed: number;
            cancelled: number;
        };
        /** @description Agent list entry (section 2.5). */
        AgentEntry: {
            /** @description Agent identifier. */
            agentId: string;
            metrics: components["schemas"]["AgentMetrics"];
            workload: components["schemas"]["Workload"];
        };
        /** @description Queue entry (section 2.5). */
        QueueEntry: {
            /** @description Queue identifier; null can stand for no queue. */
            queueId: string | null;
            queueName: string | null;
            metrics: components["schemas"]["QueueMetrics"];
            workload: components["schemas"]["Workload"];
        };
        /** @description Agent detail (section 4.6). */
        AgentDetail: {
            metrics: {
                [key: string]: unknown;
            }[];
            aggregatedMetrics: components["schemas"]["Metrics"];
            currentWorkload: components["schemas"]["Workload"];
            queues: {
                [key: string]: unknown;
            }[];
        };
        /** @description Tag analytics summary (section 2.6). */
        TagSummary: {
            totalTags: number;
            totalTagGroups: number;
            totalTaggedRecords: number;
            totalActions: number;
        };
        /** @description An item of tagBreakdown (section 2.6). */
        TagBreakdownItem: {
            /** @description Tag identifier. */
            tagId: string;
            tagName: string;
            groupName: string | null;
            count: number;
            percentage: number;
        };
        /** @description An item of volumeByTag (section 2.6). */
        TagVolumeByTagItem: {
            /** @description Tag identifier. */
            tagId: string;
            tagName: string;
            total: number;
            responded: number;
            notResponded: number;
            avgSentiment: number | null;
            avgActionability: number | null;
            avgRelevance: number | null;
        };
        /** @description Tag analytics pagination (section 2.6). */
        Pagination: {
            total: number;
            limit: number;
            offset: number;
            hasMore: boolean;
        };
        /** @description Tag analytics (section 4.8). */
        TagAnalytics: {
            summary: components["schemas"]["TagSummary"];
            tagBreakdown: components["schemas"]["TagBreakdownItem"][];
            volumeByTag: components["schemas"]["TagVolumeByTagItem"][];
            pagination: components["schemas"]["Pagination"];
        };
        /** @description Tag volume (section 4.9). */
        TagVolume: {
            data: {
                [key: string]: unknown;
            }[];
            tags: string[];
        };
        /** @description Sentiment by day row (section 2.6). */
        SentimentDayRow: {
            /** @description The day. */
            day: string;
            "Very Negative": number;
            Negative: number;
            Neutral: number;
            Positive: number;
        };
        /** @description Sentiment by tag row (section 2.6). */
        SentimentTagRow: {
            tagName: string;
            veryNegative: number;
            negative: number;
            neutral: number;
            positive: number;
            totalMentions: number;
        };
        /** @description Engagement percentiles per platform (section 2.6). */
        EngagementPercentile: {
            platform: string;
            p25MessagesPerUser: number;
            medianMessagesPerUser: number;
            p75MessagesPerUser: number;
        };
        /** @description Weekly growth trend row (section 2.6). */
        GrowthTrend: {
            /**
             * Format: date-time
             * @description Week start (date-time).
             */
            week: string;
            platform: string;
            currentWeekUsers: number;
            previousWeekUsers: number;
            growthPercentage: number;
        };
        /** @description Engagement analytics (section 4.12). */
        Engagement: {
            engagementPercentiles: components["schemas"]["EngagementPercentile"][];
            growthTrends: components["schemas"]["GrowthTrend"][];
            conversionFunnel: {
                [key: string]: unknown;
            }[];
        };
        /** @description A media item of a moderation submission (section 2.7). */
        ModerationMedia: {
            /**
             * Format: uri
             * @description Absolute HTTP or HTTPS URL of the asset.
             */
            url: string;
            /** @enum {string} */
            type: "image" | "video";
            position: number;
        };
        /** @description Attachment of a moderation submission (section 2.7). */
        ModerationAttachment: {
            /** @enum {string} */
            type: "web_view" | "deep_link" | "app_install" | "lens" | "long_form_video";
            destinationUrl: string | null;
        };
        /** @description Targeting of a moderation submission (section 2.7). */
        ModerationTargeting: {
            ageMin: number | null;
            ageMax?: number | null;
            geos: string[];
            languages?: string[];
        };
        /** @description Ad copy of a moderation submission (section 2.7); every field up to 20000 characters. */
        ModerationCopy: {
            /** @description Ad copy: body. */
            body?: string;
            /** @description Ad copy: caption. */
            caption?: string;
            /** @description Ad copy: link description. */
            linkDescription?: string;
            /** @description Ad copy: source title. */
            sourceTitle?: string;
        };
        /** @description Public profile of the advertiser (section 2.7). */
        ModerationPublicProfile: {
            /** @description Profile display name. */
            displayName?: string;
            /**
             * Format: uri
             * @description Logo URL.
             */
            logoUrl?: string;
            verified?: boolean;
        };
        /** @description A moderation case submission (section 2.7): the single-case body and a batch item. */
        ModerationSubmission: {
            /** @description Producer identifier, immutable per organization; echoed byte for byte. */
            externalId: string;
            /** @description Producing system. */
            sourceSystem: string;
            /** @description Advertising platform. */
            sourcePlatform: string;
            /** @description Ad identifier on the source platform. */
            sourceAdId: string;
            /** @description Advertiser identifier. */
            advertiserId?: string;
            /** @description Advertiser name. */
            advertiserName: string;
            /** @description Campaign identifier. */
            campaignId?: string;
            /** @description Market. */
            market: string;
            /** @description Placement. */
            placement: string;
            /**
             * @description Language, default en.
             * @default en
             */
            language?: string;
            /** @description Retained with the submission. */
            providerMetadata?: Record<string, never>;
            /** @description Landing page URL, or null. */
            landingPageUrl: string | null;
            /** @description Ad title. */
            title: string;
            /** @description Headline. */
            headline?: string;
            /** @description Brand name. */
            brandName?: string;
            /** @enum {string} */
            callToAction?: "APPLY_NOW" | "BOOK_NOW" | "GET_NOW" | "INSTALL_NOW" | "MORE" | "SHOP_NOW" | "SIGN_UP" | "VIEW" | "WATCH";
            publicProfile?: components["schemas"]["ModerationPublicProfile"];
            media: components["schemas"]["ModerationMedia"][];
            attachment: components["schemas"]["ModerationAttachment"];
            targeting: components["schemas"]["ModerationTargeting"];
            copy: components["schemas"]["ModerationCopy"];
            discoverTile?: boolean;
            partnershipAd?: boolean;
            format?: string | null;
            arLens?: string | null;
            /** Format: date-time */
            submittedAt?: string;
        };
        /** @description A span of text inside a submission field (section 2.7). */
        ModerationTextSpan: {
            /** @description Name of the text field. */
            field?: string;
            start: number;
            end: number;
        };
        /** @description Where evidence points inside the submission (section 2.7). */
        ModerationLocator: {
            /** @enum {string} */
            asset?: "public_profile_logo";
            mediaIndex?: number;
            /** @description Region of an image or frame. */
            boundingBox?: unknown;
            startSeconds?: number;
            endSeconds?: number;
            textSpan?: components["schemas"]["ModerationTextSpan"];
        };
        /** @description Evidence of a hit (section 2.7). */
        ModerationEvidence: {
            /** @enum {string} */
            modality: "image" | "video" | "text" | "metadata";
            claim: string;
            locator?: components["schemas"]["ModerationLocator"];
        };
        /** @description A policy rule hit (section 2.7). */
        ModerationHit: {
            ruleId: string;
            ruleSlug: string;
            /** @enum {string} */
            polarity: "AMBIGUOUS" | "NEGATIVE" | "POSITIVE";
            /** @enum {string} */
            confidence: "low" | "medium" | "high";
            reasoning: string | null;
            evidence: components["schemas"]["ModerationEvidence"][];
        };
        /** @description Advertiser or landing-page assessment (section 2.7). */
        ModerationAssessment: {
            polarity: string;
            reasoning: string;
        };
        /** @description Evaluation decision (section 2.7); present only once the analysis is completed. */
        ModerationDecision: {
            /** @enum {string} */
            disposition: "age_gate" | "approve" | "escalate" | "reject";
            /** @enum {string} */
            confidence: "low" | "medium" | "high";
            /** @default null */
            title?: string | null;
            reason: string;
            hits: components["schemas"]["ModerationHit"][];
            advertiserAssessment: components["schemas"]["ModerationAssessment"];
            landingAssessment: components["schemas"]["ModerationAssessment"];
            /**
             * @default model
             * @enum {string}
             */
            decisionSource?: "model" | "fail_closed";
            /** @default null */
            failureCode?: string | null;
            /** @default null */
            failureMessage?: string | null;
        };
        /** @description Idempotency of a submission: replayed is true for an exact resubmission. */
        ModerationIdempotency: {
            key: string;
            replayed: boolean;
        };
        /** @description Acknowledgement of a single submission (section 4.14). */
        ModerationAck: {
            /** @description Case identifier. */
            caseId: string;
            /** @description The externalId exactly as submitted. */
            externalId: string;
            /** @enum {string} */
            status: "accepted" | "duplicate";
            /** @enum {string} */
            analysisStatus: "pending";
            /** @description Evaluation identifier. */
            evaluationId: string;
            idempotency: components["schemas"]["ModerationIdempotency"];
        };
        /** @description A batch of 1..100 submissions (section 4.15). An invalid item is rejected in its result; it does not fail the batch. */
        ModerationBatchRequest: {
            cases: components["schemas"]["ModerationSubmission"][];
        };
        /** @description One batch result, in input order (section 4.15). */
        ModerationBatchResult: {
            /** @description The externalId as submitted. */
            externalId: string | null;
            /** @description Case identifier. */
            caseId: string | null;
            /** @enum {string} */
            status: "accepted" | "duplicate" | "rejected";
            /** @enum {string} */
            analysisStatus?: "pending";
            evaluationId?: string;
            idempotency?: components["schemas"]["ModerationIdempotency"];
            errors?: string[];
            message?: string;
            /** @enum {string} */
            code?: "MODERATION_INPUT_INCOMPLETE" | "MODERATION_INPUT_INVALID";
            missingFields?: string[];
            invalidFields?: string[];
        };
        /** @description Batch acknowledgement: one result per input, in input order (section 4.15). */
        ModerationBatchResponse: {
            results: components["schemas"]["ModerationBatchResult"][];
        };
        /** @description Moderation case status (section 4.16). The decision is present only when analysisStatus is completed (section 3, fact 2). */
        ModerationCaseStatus: {
            /** @description Case identifier. */
            caseId: string;
            /** @description The externalId exactly as submitted. */
            externalId: string;
            /** @enum {string} */
            analysisStatus: "policy_not_configured" | "pending" | "running" | "completed" | "failed";
            evaluationId?: string;
            decision?: components["schemas"]["ModerationDecision"];
            failureCode?: string | null;
        };
        /**
         * @description Source platform of an ingestion batch (section 4.17).
         * @enum {string}
         */
        Platform: "DISCORD" | "SLACK" | "GITHUB" | "ZENDESK" | "TELEGRAM" | "FACEBOOK_GROUP" | "TWITTER_COMMUNITY" | "SALESFORCE" | "FACEBOOK" | "TWITTER" | "THREADS" | "TIKTOK" | "INSTAGRAM" | "LINKEDIN" | "WHATSAPP" | "YOUTUBE" | "GAINSIGHT" | "APPSTORE" | "GOOGLE_PLAY" | "HIGHER_LOGIC" | "DISCOURSE" | "CUSTOM_FORM" | "MODERATION_API" | "CHROME_WEB_STORE" | "CANNY";
        /** @description Source of an ingestion batch (section 4.17). */
        IngestionSource: {
            system: string;
            sourceId?: string;
        };
        /** @description A normalized record (section 4.17). */
        IngestionRecord: {
            /** @description Preserved across retries; identity with org, platform, serverId. */
            externalId: string;
            threadExternalId?: string;
            parentExternalId?: string;
            authorId: string;
            authorName: string;
            title?: string;
            body: string;
            score?: number;
            createdAt: string;
            /**
             * Format: uri
             * @description Absolute HTTP(S).
             */
            url?: string;
            recordType: string;
            customFields?: components["schemas"]["CustomFields"];
        };
        /** @description An ingestion batch (section 4.17). */
        IngestionBatch: {
            platform: components["schemas"]["Platform"];
            /** @description Source account or community id. */
            serverId: string;
            serverName: string;
            channelId?: string;
            channelName?: string;
            /** @enum {string} */
            processingLevel?: "INSIGHTS" | "STATS_ONLY";
            source?: components["schemas"]["IngestionSource"];
            records: components["schemas"]["IngestionRecord"][];
        };
        /** @description Ingestion acknowledgement; processing continues asynchronously (section 4.17). */
        IngestionAccepted: {
            /** @enum {string} */
            status: "accepted";
            /** @description Count of accepted records. */
            accepted: number;
        };
        /** @description Action list (section 4.1). There is no page input: move timestamp windows instead. */
        ActionListResponse: {
            data: components["schemas"]["ActionSummary"][];
            totalRecords: number;
            currentPage: number;
            pageSize: number;
            totalPages: number;
        };
        /** @description Conversation search (section 4.13). */
        ConversationSearchResponse: {
            /** @description True on success. */
            success: boolean;
            data: components["schemas"]["ConversationSearchItem"][];
            totalRecords: number;
            /** @description When true the count stopped at a cap and is not exact. */
            totalRecordsCapped: boolean;
            currentPage: number;
            pageSize: number;
            totalPages: number;
        };
        /** @description Custom fields of an action (section 4.3). */
        CustomFieldsResponse: {
            /** @description Action identifier. */
            actionId: string;
            fields: components["schemas"]["CustomFieldValue"][];
        };
        /** @description Custom field values to write (section 4.4); at least one. */
        CustomFieldsUpdateRequest: {
            fields: components["schemas"]["CustomFieldWrite"][];
        };
        /** @description Written custom field values (section 4.4). */
        CustomFieldsUpdateResponse: {
            /** @description Action identifier. */
            actionId: string;
            updated: components["schemas"]["CustomFieldUpdated"][];
        };
        /** @description Agents (section 4.5). */
        AgentListResponse: {
            /** @description True on success. */
            success: boolean;
            data: components["schemas"]["AgentEntry"][];
        };
        /** @description Agent detail (section 4.6). */
        AgentDetailResponse: {
            /** @description True on success. */
            success: boolean;
            data: components["schemas"]["AgentDetail"];
        };
        /** @description Queues (section 4.7). */
        QueueListResponse: {
            /** @description True on success. */
            success: boolean;
            data: components["schemas"]["QueueEntry"][];
        };
        /** @description Tag analytics (section 4.8). */
        TagAnalyticsResponse: {
            /** @description True on success. */
            success: boolean;
            data: components["schemas"]["TagAnalytics"];
        };
        /** @description Tag volume (section 4.9). */
        TagVolumeResponse: {
            /** @description True on success. */
            success: boolean;
            data: components["schemas"]["TagVolume"];
        };
        /** @description Sentiment by day (section 4.10). */
        SentimentByDayResponse: {
            /** @description True on success. */
            success: boolean;
            data: components["schemas"]["SentimentDayRow"][];
        };
        /** @description Sentiment by tag (section 4.11). */
        SentimentByTagResponse: {
            /** @description True on success. */
            success: boolean;
            data: components["schemas"]["SentimentTagRow"][];
        };
        /** @description Engagement analytics (section 4.12). */
        EngagementResponse: {
            /** @description True on success. */
            success: boolean;
            data: components["schemas"]["Engagement"];
        };
        /** @description General REST error body (section 7). */
        ErrorBody: {
            /** @constant */
            success: false;
            /** @description Error message. An uncaught server error says "Internal server error". */
            error: string;
        };
        /** @description Custom-field error body (section 7): the general body plus fieldErrors on validation failure. */
        CustomFieldErrorBody: components["schemas"]["ErrorBody"] & {
            /** @description Field name to validation message. */
            fieldErrors?: {
                [key: string]: string;
            };
        };
        /** @description Moderation error body (section 7): the general body plus optional detail. */
        ModerationErrorBody: components["schemas"]["ErrorBody"] & {
            message?: string;
            /** @enum {string} */
            code?: "MODERATION_INPUT_INCOMPLETE" | "MODERATION_INPUT_INVALID";
            missingFields?: string[];
            invalidFields?: string[];
            supported?: string[];
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listActions: {
        parameters: {
            query?: {
                /** @description Window start: ISO 8601 date or timestamp; a date-only value is midnight UTC. */
                from?: string;
                /** @description Window end, inclusive: ISO 8601 date or timestamp; a date-only value is midnight UTC of that date (not the end of that date). */
                to?: string;
                /** @description Page size, 1..500. */
                pageSize?: number;
                /** @description Legacy filter; only the responded flag is read. */
                filter?: string;
                /** @description Legacy JSON filter; only the responded flag is read. */
                filterJson?: string;
                /** @description Full Operations DSL, at most 10000 characters. Must not be combined with filter or filterJson. Adds no responded default. */
                fullFilter?: string;
                /** @description Fill conversationJson. */
                includeFullConversation?: boolean;
                /** @description Selects both the date field used by from/to and the newest-first order. */
                sortBy?: "createdAt" | "updatedAt";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of action summary records. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ActionListResponse"];
                };
            };
            /** @description Bad request: a parameter is out of range or malformed, or fullFilter is combined with filter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key (section 5.1). Declared on every operation even where the per-endpoint table omits it. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key lacks the read scope (sections 5.4, 5.7, 5.8). Declared wherever a key can lack the scope, even where the per-endpoint table omits it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Uncaught server error (section 7). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getAction: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Action identifier, a string preserved exactly. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The action. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ActionDetail"];
                };
            };
            /** @description The request cannot be read: a path segment is not valid percent-encoding. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key (section 5.1). Declared on every operation even where the per-endpoint table omits it. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key lacks the read scope (sections 5.4, 5.7, 5.8). Declared wherever a key can lack the scope, even where the per-endpoint table omits it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No action with this id in the key’s organization. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Uncaught server error (section 7). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getCustomFields: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Action identifier. */
                actionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Custom field values. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomFieldsResponse"];
                };
            };
            /** @description The request cannot be read: a path segment is not valid percent-encoding. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomFieldErrorBody"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key (section 5.1). Declared on every operation even where the per-endpoint table omits it. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key lacks the read scope (sections 5.4, 5.7, 5.8). Declared wherever a key can lack the scope, even where the per-endpoint table omits it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No action with this id in the key’s organization. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomFieldErrorBody"];
                };
            };
            /** @description Uncaught server error (section 7). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    updateCustomFields: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Action identifier. */
                actionId: string;
            };
            cookie?: never;
        };
        /** @description At least one field value. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["CustomFieldsUpdateRequest"];
            };
        };
        responses: {
            /** @description The values written. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomFieldsUpdateResponse"];
                };
            };
            /** @description The request cannot be read: the body is not JSON, or a path segment is not valid percent-encoding. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomFieldErrorBody"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key (section 5.1). Declared on every operation even where the per-endpoint table omits it. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key lacks the write scope (sections 5.4, 5.7, 5.8). Declared wherever a key can lack the scope, even where the per-endpoint table omits it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No action with this id in the key’s organization. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomFieldErrorBody"];
                };
            };
            /** @description The body is larger than the server accepts. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomFieldErrorBody"];
                };
            };
            /** @description The body is not sent as application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomFieldErrorBody"];
                };
            };
            /** @description Validation failed; fieldErrors maps each field name to its message. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomFieldErrorBody"];
                };
            };
            /** @description Uncaught server error (section 7). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listAgents: {
        parameters: {
            query?: {
                /** @description Window start: ISO 8601 date or timestamp; a date-only value is midnight UTC. */
                from?: string;
                /** @description Window end, inclusive: ISO 8601 date or timestamp; a date-only value is midnight UTC of that date (not the end of that date). */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Agents. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentListResponse"];
                };
            };
            /** @description A query parameter is malformed (for example from/to not an ISO 8601 date or timestamp). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key (section 5.1). Declared on every operation even where the per-endpoint table omits it. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key lacks the read scope (sections 5.4, 5.7, 5.8). Declared wherever a key can lack the scope, even where the per-endpoint table omits it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Uncaught server error (section 7). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getAgent: {
        parameters: {
            query?: {
                /** @description Window start: ISO 8601 date or timestamp; a date-only value is midnight UTC. */
                from?: string;
                /** @description Window end, inclusive: ISO 8601 date or timestamp; a date-only value is midnight UTC of that date (not the end of that date). */
                to?: string;
            };
            header?: never;
            path: {
                /** @description Agent identifier. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The agent. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentDetailResponse"];
                };
            };
            /** @description A query parameter is malformed (for example from/to not an ISO 8601 date or timestamp). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key (section 5.1). Declared on every operation even where the per-endpoint table omits it. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key lacks the read scope (sections 5.4, 5.7, 5.8). Declared wherever a key can lack the scope, even where the per-endpoint table omits it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No agent with this id in the key’s organization. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Uncaught server error (section 7). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listQueues: {
        parameters: {
            query?: {
                /** @description Window start: ISO 8601 date or timestamp; a date-only value is midnight UTC. */
                from?: string;
                /** @description Window end, inclusive: ISO 8601 date or timestamp; a date-only value is midnight UTC of that date (not the end of that date). */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Queues. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QueueListResponse"];
                };
            };
            /** @description A query parameter is malformed (for example from/to not an ISO 8601 date or timestamp). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key (section 5.1). Declared on every operation even where the per-endpoint table omits it. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key lacks the read scope (sections 5.4, 5.7, 5.8). Declared wherever a key can lack the scope, even where the per-endpoint table omits it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Uncaught server error (section 7). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getTagAnalytics: {
        parameters: {
            query?: {
                /** @description Window start: ISO 8601 date or timestamp; a date-only value is midnight UTC. */
                from?: string;
                /** @description Window end, inclusive: ISO 8601 date or timestamp; a date-only value is midnight UTC of that date (not the end of that date). */
                to?: string;
                /** @description Count responded actions only. */
                respondedOnly?: boolean;
                /** @description Page size of the tag lists. */
                limit?: number;
                /** @description Offset into the tag lists. */
                offset?: number;
                /** @description Text search over tags. */
                search?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Tag analytics. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TagAnalyticsResponse"];
                };
            };
            /** @description A query parameter is malformed (for example from/to not an ISO 8601 date or timestamp). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key (section 5.1). Declared on every operation even where the per-endpoint table omits it. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key lacks the read scope (sections 5.4, 5.7, 5.8). Declared wherever a key can lack the scope, even where the per-endpoint table omits it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Uncaught server error (section 7). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getTagVolume: {
        parameters: {
            query?: {
                /** @description Window start: ISO 8601 date or timestamp; a date-only value is midnight UTC. */
                from?: string;
                /** @description Window end, inclusive: ISO 8601 date or timestamp; a date-only value is midnight UTC of that date (not the end of that date). */
                to?: string;
                /** @description Count responded actions only. */
                respondedOnly?: boolean;
                /** @description How many top tags. */
                topTagsLimit?: number;
                /** @description Comma-separated tag IDs. */
                tagIds?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Tag volume. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TagVolumeResponse"];
                };
            };
            /** @description A query parameter is malformed (for example from/to not an ISO 8601 date or timestamp). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key (section 5.1). Declared on every operation even where the per-endpoint table omits it. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key lacks the read scope (sections 5.4, 5.7, 5.8). Declared wherever a key can lack the scope, even where the per-endpoint table omits it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Uncaught server error (section 7). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getSentimentByDay: {
        parameters: {
            query?: {
                /** @description Window start: ISO 8601 date or timestamp; a date-only value is midnight UTC. */
                from?: string;
                /** @description Window end, inclusive: ISO 8601 date or timestamp; a date-only value is midnight UTC of that date (not the end of that date). */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Daily rows. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SentimentByDayResponse"];
                };
            };
            /** @description A query parameter is malformed (for example from/to not an ISO 8601 date or timestamp). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key (section 5.1). Declared on every operation even where the per-endpoint table omits it. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key lacks the read scope (sections 5.4, 5.7, 5.8). Declared wherever a key can lack the scope, even where the per-endpoint table omits it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Uncaught server error (section 7). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getSentimentByTag: {
        parameters: {
            query?: {
                /** @description Window start: ISO 8601 date or timestamp; a date-only value is midnight UTC. */
                from?: string;
                /** @description Window end, inclusive: ISO 8601 date or timestamp; a date-only value is midnight UTC of that date (not the end of that date). */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Per-tag rows. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SentimentByTagResponse"];
                };
            };
            /** @description A query parameter is malformed (for example from/to not an ISO 8601 date or timestamp). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key (section 5.1). Declared on every operation even where the per-endpoint table omits it. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key lacks the read scope (sections 5.4, 5.7, 5.8). Declared wherever a key can lack the scope, even where the per-endpoint table omits it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Uncaught server error (section 7). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getEngagement: {
        parameters: {
            query?: {
                /** @description Window start: ISO 8601 date or timestamp; a date-only value is midnight UTC. */
                from?: string;
                /** @description Window end, inclusive: ISO 8601 date or timestamp; a date-only value is midnight UTC of that date (not the end of that date). */
                to?: string;
                /** @description Comma-separated source platform values. */
                platforms?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Engagement. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EngagementResponse"];
                };
            };
            /** @description A query parameter is malformed (for example from/to not an ISO 8601 date or timestamp). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key (section 5.1). Declared on every operation even where the per-endpoint table omits it. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key lacks the read scope (sections 5.4, 5.7, 5.8). Declared wherever a key can lack the scope, even where the per-endpoint table omits it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Uncaught server error (section 7). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    searchConversations: {
        parameters: {
            query?: {
                /** @description Filter DSL text: key=value terms joined with +, all of which must hold. */
                filter?: string;
                /** @description Page number, 1..10000. */
                page?: number;
                /** @description Page size, 1..100. */
                pageSize?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of conversation search items. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversationSearchResponse"];
                };
            };
            /** @description Bad request: a parameter is out of range or the filter is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key (section 5.1). Declared on every operation even where the per-endpoint table omits it. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key lacks the read scope (sections 5.4, 5.7, 5.8). Declared wherever a key can lack the scope, even where the per-endpoint table omits it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Uncaught server error (section 7). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    submitModerationCase: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The moderation submission. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["ModerationSubmission"];
            };
        };
        responses: {
            /** @description Accepted (or an exact duplicate); analysis is pending. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ModerationAck"];
                };
            };
            /** @description A required field is missing (code MODERATION_INPUT_INCOMPLETE with missingFields), or the body is not JSON. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ModerationErrorBody"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key (section 5.1). Declared on every operation even where the per-endpoint table omits it. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key lacks the write scope, or the organization is not in ad_policy moderation mode (then supported lists the modes that allow moderation). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ModerationErrorBody"];
                };
            };
            /** @description The externalId exists with different content (immutable identifier conflict). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ModerationErrorBody"];
                };
            };
            /** @description The body is larger than the server accepts. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ModerationErrorBody"];
                };
            };
            /** @description The body is not sent as application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ModerationErrorBody"];
                };
            };
            /** @description A present field has an invalid value (code MODERATION_INPUT_INVALID with invalidFields). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ModerationErrorBody"];
                };
            };
            /** @description Uncaught server error (section 7). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    submitModerationBatch: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The submissions. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["ModerationBatchRequest"];
            };
        };
        responses: {
            /** @description One result per input, in input order. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ModerationBatchResponse"];
                };
            };
            /** @description cases is missing, not an array, or outside 1..100 items; or the body is not JSON. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ModerationErrorBody"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key (section 5.1). Declared on every operation even where the per-endpoint table omits it. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key lacks the write scope, or the organization is not in ad_policy moderation mode (then supported lists the modes that allow moderation). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ModerationErrorBody"];
                };
            };
            /** @description The body is larger than the server accepts. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ModerationErrorBody"];
                };
            };
            /** @description The body is not sent as application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ModerationErrorBody"];
                };
            };
            /** @description Uncaught server error (section 7). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getModerationCase: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Case identifier. */
                caseId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The case status. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ModerationCaseStatus"];
                };
            };
            /** @description The request cannot be read: a path segment is not valid percent-encoding. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ModerationErrorBody"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key (section 5.1). Declared on every operation even where the per-endpoint table omits it. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key lacks the read scope (sections 5.4, 5.7, 5.8). Declared wherever a key can lack the scope, even where the per-endpoint table omits it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No case with this id in the key’s organization. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ModerationErrorBody"];
                };
            };
            /** @description Uncaught server error (section 7). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    ingestRecords: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The batch. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["IngestionBatch"];
            };
        };
        responses: {
            /** @description Accepted; processing continues asynchronously. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestionAccepted"];
                };
            };
            /** @description The request cannot be read: the body is not JSON, or a path segment is not valid percent-encoding. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked API key (section 5.1). Declared on every operation even where the per-endpoint table omits it. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key lacks the ingest scope (sections 5.4, 5.7, 5.8). Declared wherever a key can lack the scope, even where the per-endpoint table omits it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is larger than the server accepts. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not sent as application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation failed; the message names the field. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Uncaught server error (section 7). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description This OpenAPI document. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        openapi: string;
                        info: {
                            title: string;
                            summary?: string;
                            description?: string;
                            termsOfService?: string;
                            contact?: {
                                [key: string]: unknown;
                            };
                            license?: {
                                [key: string]: unknown;
                            };
                            version: string;
                        } & {
                            [key: string]: unknown;
                        };
                        jsonSchemaDialect?: string;
                        servers?: unknown[];
                        paths: unknown;
                        webhooks?: unknown;
                        components?: unknown;
                        security?: unknown[];
                        tags?: unknown[];
                        externalDocs?: unknown;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    getSwaggerUi: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The Swagger UI page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
        };
    };
}

// Friendly aliases, one per component schema.
export type Tag = components['schemas']['Tag'];
export type CustomFields = components['schemas']['CustomFields'];
export type ActionSummary = components['schemas']['ActionSummary'];
export type ConversationSearchItem = components['schemas']['ConversationSearchItem'];
export type ActionUser = components['schemas']['ActionUser'];
export type ActionAssignee = components['schemas']['ActionAssignee'];
export type ActionComment = components['schemas']['ActionComment'];
export type Message = components['schemas']['Message'];
export type ConversationEntry = components['schemas']['ConversationEntry'];
export type ActionDetail = components['schemas']['ActionDetail'];
export type CustomFieldValue = components['schemas']['CustomFieldValue'];
export type CustomFieldWrite = components['schemas']['CustomFieldWrite'];
export type CustomFieldUpdated = components['schemas']['CustomFieldUpdated'];
export type Metrics = components['schemas']['Metrics'];
export type AgentMetrics = components['schemas']['AgentMetrics'];
export type QueueMetrics = components['schemas']['QueueMetrics'];
export type Workload = components['schemas']['Workload'];
export type AgentEntry = components['schemas']['AgentEntry'];
export type QueueEntry = components['schemas']['QueueEntry'];
export type AgentDetail = components['schemas']['AgentDetail'];
export type TagSummary = components['schemas']['TagSummary'];
export type TagBreakdownItem = components['schemas']['TagBreakdownItem'];
export type TagVolumeByTagItem = components['schemas']['TagVolumeByTagItem'];
export type Pagination = components['schemas']['Pagination'];
export type TagAnalytics = components['schemas']['TagAnalytics'];
export type TagVolume = components['schemas']['TagVolume'];
export type SentimentDayRow = components['schemas']['SentimentDayRow'];
export type SentimentTagRow = components['schemas']['SentimentTagRow'];
export type EngagementPercentile = components['schemas']['EngagementPercentile'];
export type GrowthTrend = components['schemas']['GrowthTrend'];
export type Engagement = components['schemas']['Engagement'];
export type ModerationMedia = components['schemas']['ModerationMedia'];
export type ModerationAttachment = components['schemas']['ModerationAttachment'];
export type ModerationTargeting = components['schemas']['ModerationTargeting'];
export type ModerationCopy = components['schemas']['ModerationCopy'];
export type ModerationPublicProfile = components['schemas']['ModerationPublicProfile'];
export type ModerationSubmission = components['schemas']['ModerationSubmission'];
export type ModerationTextSpan = components['schemas']['ModerationTextSpan'];
export type ModerationLocator = components['schemas']['ModerationLocator'];
export type ModerationEvidence = components['schemas']['ModerationEvidence'];
export type ModerationHit = components['schemas']['ModerationHit'];
export type ModerationAssessment = components['schemas']['ModerationAssessment'];
export type ModerationDecision = components['schemas']['ModerationDecision'];
export type ModerationIdempotency = components['schemas']['ModerationIdempotency'];
export type ModerationAck = components['schemas']['ModerationAck'];
export type ModerationBatchRequest = components['schemas']['ModerationBatchRequest'];
export type ModerationBatchResult = components['schemas']['ModerationBatchResult'];
export type ModerationBatchResponse = components['schemas']['ModerationBatchResponse'];
export type ModerationCaseStatus = components['schemas']['ModerationCaseStatus'];
export type Platform = components['schemas']['Platform'];
export type IngestionSource = components['schemas']['IngestionSource'];
export type IngestionRecord = components['schemas']['IngestionRecord'];
export type IngestionBatch = components['schemas']['IngestionBatch'];
export type IngestionAccepted = components['schemas']['IngestionAccepted'];
export type ActionListResponse = components['schemas']['ActionListResponse'];
export type ConversationSearchResponse = components['schemas']['ConversationSearchResponse'];
export type CustomFieldsResponse = components['schemas']['CustomFieldsResponse'];
export type CustomFieldsUpdateRequest = components['schemas']['CustomFieldsUpdateRequest'];
export type CustomFieldsUpdateResponse = components['schemas']['CustomFieldsUpdateResponse'];
export type AgentListResponse = components['schemas']['AgentListResponse'];
export type AgentDetailResponse = components['schemas']['AgentDetailResponse'];
export type QueueListResponse = components['schemas']['QueueListResponse'];
export type TagAnalyticsResponse = components['schemas']['TagAnalyticsResponse'];
export type TagVolumeResponse = components['schemas']['TagVolumeResponse'];
export type SentimentByDayResponse = components['schemas']['SentimentByDayResponse'];
export type SentimentByTagResponse = components['schemas']['SentimentByTagResponse'];
export type EngagementResponse = components['schemas']['EngagementResponse'];
export type ErrorBody = components['schemas']['ErrorBody'];
export type CustomFieldErrorBody = components['schemas']['CustomFieldErrorBody'];
export type ModerationErrorBody = components['schemas']['ModerationErrorBody'];

/** Every operationId of the contract. */
export type OperationId = 'listActions' | 'getAction' | 'getCustomFields' | 'updateCustomFields' | 'listAgents' | 'getAgent' | 'listQueues' | 'getTagAnalytics' | 'getTagVolume' | 'getSentimentByDay' | 'getSentimentByTag' | 'getEngagement' | 'searchConversations' | 'submitModerationCase' | 'submitModerationBatch' | 'getModerationCase' | 'ingestRecords' | 'getOpenApiDocument' | 'getSwaggerUi';

/** The operationIds, as a runtime list in document order. */
export const OPERATION_IDS = ['listActions', 'getAction', 'getCustomFields', 'updateCustomFields', 'listAgents', 'getAgent', 'listQueues', 'getTagAnalytics', 'getTagVolume', 'getSentimentByDay', 'getSentimentByTag', 'getEngagement', 'searchConversations', 'submitModerationCase', 'submitModerationBatch', 'getModerationCase', 'ingestRecords', 'getOpenApiDocument', 'getSwaggerUi'] as const satisfies readonly OperationId[];
