/**
 * The ACP 2026-04-17 shapes the profile's handlers and mappers take: the types generated from the
 * official agentic checkout document (../generated/, never edited by hand), with the profile's
 * documented additions to requests (request-schema.ts: the RFC's `items` and `quantity`, which the
 * official schema leaves out but its RFC and examples send). Every body is validated against the
 * official JSON Schema (plus those additions) at the edge.
 */
import type * as Acp from '../generated/index.js';

export type AcpAddress = Acp.Address;
export type AcpFulfillmentDetails = Acp.FulfillmentDetails;
export type AcpBuyer = Acp.Buyer;
export type AcpCapabilities = Acp.Capabilities;
export type AcpSelectedFulfillmentOption = Acp.SelectedFulfillmentOption;
export type AcpTotal = Acp.Total;
export type AcpMessage = Acp.MessageInfo | Acp.MessageWarning | Acp.MessageError;

/** As the profile takes it: the official Item plus the RFC's `quantity` (request-schema.ts). */
export type AcpItem = Acp.Item & { quantity?: number };

/** The official request, whose `line_items` may also be sent as `items` (the RFC's name for it); one of them is required. */
export type AcpCreateRequest = Omit<Acp.CheckoutSessionCreateRequest, 'line_items'> & { line_items?: AcpItem[]; items?: AcpItem[] };
export type AcpUpdateRequest = Omit<Acp.CheckoutSessionUpdateRequest, 'line_items'> & { line_items?: AcpItem[]; items?: AcpItem[] };
export type AcpCompleteRequest = Acp.CheckoutSessionCompleteRequest;
