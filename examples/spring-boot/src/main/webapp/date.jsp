<%-- Seed 000's page: "a simple JSP that displayed the current date". Compiled by the container's Jasper (war only). --%>
<%@ page contentType="text/html; charset=UTF-8" session="false" %>
<!DOCTYPE html>
<html><head><title>Date</title></head><body><p><%= new java.util.Date() %></p></body></html>
