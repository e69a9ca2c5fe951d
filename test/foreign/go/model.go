package main

import (
	"sync"
	"time"
)

type Key struct {
	Value   string
	Name    string
	Org     string
	Scopes  map[string]bool
	Expires *time.Time
	Revoked bool
}

type Agent struct {
	ID, Name, Email, Role string
}

type Tag struct {
	ID, Value, Group string
}

type Message struct {
	ID         string
	Timestamp  time.Time
	Author     string
	AuthorID   string
	AuthorType string
	Text       string
	Media      []string
	ParentID   *string
}

type Comment struct {
	Text, AuthorID string
	AuthorName     *string
}

type CFDef struct {
	Name, Display, Type string
	Options             []string
}

type Action struct {
	Org                          string
	ID                           string
	Title, Summary               string
	Status, Platform             string
	RecordType                   *string
	IsPublic                     bool
	SourceURL                    *string
	Queue, InitialQueue          *string
	Sentiment                    *string
	SentimentScore               *float64
	Moderation                   *string
	Assignee                     *Agent
	UserName, UserHandle, UserID string
	UserEmail                    *string
	UserFollowers                *int
	CreatedAt                    time.Time
	UpdatedAt                    *time.Time
	InitialMessageTime           *time.Time
	InitialResponseTime          *time.Time
	CloseTime, ClaimTime         *time.Time
	FirstResponseSecs            *int
	HandleSecs                   *int
	ServerName, ChannelName      string
	CsatScore, CsatFeedback      *string
	EstimatedCSAT                *float64
	Tags, ClosingTags            []Tag
	CF                           map[string]interface{} // live values
	CFList                       map[string]interface{} // values as shown by the list view
	CFProv                       map[string]interface{}
	RootText                     *string
	Messages                     []Message
	Comments                     []Comment
	ThreadID                     string
	EasyID                       *string
	Contributors                 *string
	ResolutionQuality            float64
	SentimentChange              float64
	RubricScore                  float64
	Actionability                float64
	Relevance                    float64
	NoTotals                     bool
}

func (a *Action) Responded() bool { return a.InitialResponseTime != nil }

type ModCase struct {
	Org          string
	CaseID       string
	ExternalID   string
	EvaluationID string
	Content      string // canonical content used for idempotency
	Body         map[string]interface{}
	CreatedAt    time.Time
	Outcome      string // completed|failed|policy_not_configured
	Decision     map[string]interface{}
	FailureCode  *string
}

type IngestRec struct {
	Key  string
	Data map[string]interface{}
	At   time.Time
}

type Org struct {
	ID         string
	Name       string
	Moderation string // "ad_policy" or ""
	Actions    []*Action
	ByID       map[string]*Action
	Agents     []*Agent
	AgentByID  map[string]*Agent
	Tags       []Tag
	CFDefs     []CFDef
	Cases      map[string]*ModCase // by caseId
	CaseByExt  map[string]*ModCase
	Ingested   map[string]*IngestRec
}

type Store struct {
	mu       sync.Mutex
	start    time.Time
	orgs     map[string]*Org
	keys     map[string]*Key
	keyNames map[string]string
	seq      int
}
